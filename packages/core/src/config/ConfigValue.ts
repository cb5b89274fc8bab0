import { Config, ConfigError, Duration, Either, Option, Redacted } from "effect"
import { allNetworks, type Network } from "../kernel/Network.js"
import * as Setting from "./Setting.js"

/**
 * The kinds of values settings are made of, each read from one variable with a message that
 * names it and says what is allowed. A value that is not of its kind fails the same way as one
 * out of range, so `PORT=http` and `PORT=0` get the same sentence. A default, when given, is
 * what an unset variable reads as: `ConfigValue.integer("X", { min: 1, default: 20 })`.
 */

/** A variable's text (trimmed) turned into a value, or the message when it is none. */
const parsed = <A>(name: string, message: string, parse: (text: string) => A | undefined): Config.Config<A> =>
  Config.string(name).pipe(
    Config.mapOrFail((text) => {
      const value = parse(text.trim())
      return value === undefined ? Either.left(ConfigError.InvalidData([], message)) : Either.right(value)
    })
  )

export interface Bounds {
  readonly min: number
  readonly max?: number
}

const describeBounds = ({ max, min }: Bounds) => (max === undefined ? `of at least ${min}` : `from ${min} to ${max}`)

const within = (n: number, { max, min }: Bounds) => n >= min && (max === undefined || n <= max)

const orDefault = <A>(config: Config.Config<A>, fallback: A | undefined): Config.Config<A> =>
  fallback === undefined ? config : Config.withDefault(config, fallback)

/** A whole number within bounds; `unit` is named in the message ("milliseconds", "wallets"). */
export const integer = (name: string, bounds: Bounds & { readonly unit?: string; readonly default?: number }): Config.Config<number> =>
  orDefault(
    parsed(name, `${name} must be a whole number ${describeBounds(bounds)}${bounds.unit === undefined ? "" : ` (${bounds.unit})`}`, (text) => {
      const n = /^[+-]?\d+$/.test(text) ? Number(text) : Number.NaN
      return Number.isSafeInteger(n) && within(n, bounds) ? n : undefined
    }),
    bounds.default
  )

/** An amount of USDT in base units (6 decimals: 1000000 is 1 USDT), as digits. */
export const baseUnits = (name: string, options: { readonly default?: bigint } = {}): Config.Config<bigint> =>
  orDefault(
    parsed(name, `${name} must be an amount in base units (digits only; 1000000 is 1 USDT)`, (text) =>
      /^\d{1,30}$/.test(text) ? BigInt(text) : undefined),
    options.default
  )

const durationUnits = { milliseconds: Duration.millis, seconds: Duration.seconds, hours: Duration.hours } as const

/** A duration given as a whole number of `unit`, within bounds (in that unit). */
export const duration = (
  name: string,
  unit: keyof typeof durationUnits,
  bounds: Bounds & { readonly default?: Duration.Duration }
): Config.Config<Duration.Duration> =>
  orDefault(Config.map(integer(name, { min: bounds.min, ...(bounds.max === undefined ? {} : { max: bounds.max }), unit }), durationUnits[unit]), bounds.default)

/** A duration given in milliseconds (the `_MS` variables). */
export const millis = (name: string, bounds: Bounds & { readonly default?: Duration.Duration }): Config.Config<Duration.Duration> =>
  duration(name, "milliseconds", bounds)

/** A number above zero, fractions allowed (a rate), at most `max` if given. */
export const positiveNumber = (name: string, max?: number): Config.Config<number> =>
  parsed(name, `${name} must be a number greater than 0${max === undefined ? "" : ` and at most ${max}`}`, (text) => {
    const n = /^(\d+\.?\d*|\.\d+)$/.test(text) ? Number(text) : Number.NaN
    return n > 0 && (max === undefined || n <= max) ? n : undefined
  })

/** A TCP port. */
export const port = (name: string): Config.Config<number> => integer(name, { min: 1, max: 65535 })

/** An http(s) URL without trailing slashes, so paths can be appended as they are; `example` shows one. */
export const baseUrl = (name: string, example: string): Config.Config<string> =>
  parsed(name, `${name} must be an http(s) URL such as ${example}`, (text) => {
    const url = text.replace(/\/+$/, "")
    return URL.canParse(url) && /^https?:$/.test(new URL(url).protocol) ? url : undefined
  })

const truthy = ["true", "yes", "on", "1", "y"]
const falsy = ["false", "no", "off", "0", "n"]

/** `true` or `false` (also yes/no, on/off, 1/0). */
export const boolean = (name: string): Config.Config<boolean> =>
  parsed(name, `${name} must be true or false`, (text) => {
    const lower = text.toLowerCase()
    return truthy.includes(lower) ? true : falsy.includes(lower) ? false : undefined
  })

const alternatives = (values: ReadonlyArray<string>) =>
  values.length <= 1 ? values.join("") : `${values.slice(0, -1).join(", ")} or ${values[values.length - 1]}`

/** One of `values` (case-insensitive); `note` adds a sentence of its own to the message. */
export const oneOf = <const A extends string>(name: string, values: ReadonlyArray<A>, note = ""): Config.Config<A> =>
  parsed(name, `${name} must be ${alternatives(values)}${note === "" ? "" : ` ${note}`}`, (text) => {
    const lower = text.toLowerCase()
    return values.find((value) => value === lower)
  })

/** One or more of `values`, comma-separated; repeats count once. */
export const listOf = <const A extends string>(name: string, values: ReadonlyArray<A>): Config.Config<ReadonlyArray<A>> =>
  parsed(name, `${name} must list one or more of ${values.join(", ")}, comma-separated`, (text) => {
    const items = [...new Set(text.split(",").map((item) => item.trim()).filter((item) => item !== ""))]
    return items.length > 0 && items.every((item): item is A => (values as ReadonlyArray<string>).includes(item)) ? items : undefined
  })

/** Networks, comma-separated (`nile` or `main,nile`). */
export const networks = (name: string): Config.Config<ReadonlyArray<Network>> => listOf(name, allNetworks)

/** A secret that may be absent; an empty value counts as absent (`KEY=` in an env file). */
export const secret = (name: string): Config.Config<Option.Option<Redacted.Redacted>> =>
  Config.option(Config.redacted(name)).pipe(Config.map(Option.filter((value) => Redacted.value(value).trim() !== "")))

/**
 * `DATA_DIR`: where a process keeps its files (the embedded database, the generated master key),
 * as given; relative to the working directory.
 */
export const dataDir: Setting.Setting<string> = Setting.declare({
  name: "DATA_DIR",
  default: ".data",
  description:
    "Where the embedded database and the generated master key live (relative to the working directory). Described once, `ConfigValue.dataDir` (`packages/core/src/config/ConfigValue.ts`), read by every process."
}, Config.string)
