import { Config, Duration } from "effect"

/**
 * A setting as an operator meets it: its variable, its default as it would be written in an env
 * file (or a few words when it has none or it depends on something), and what it does. The
 * settings tables of docs/configuration.md are generated from these (`npm run docs:config`), so
 * the description is the one place a setting is explained.
 */
export interface SettingDoc {
  readonly name: string
  readonly default: string
  readonly description: string
}

/** A setting's declaration: the `Config` every process reads it with, carrying its `SettingDoc`. */
export type Setting<A> = Config.Config<A> & { readonly setting: SettingDoc }

export interface Declaration<A> {
  readonly name: string
  /** What it does, in sentences (Markdown); it becomes the `meaning` column of the docs. */
  readonly description: string
  /** What an unset variable reads as. Without it the variable is required, unless `kind` says otherwise (an option). */
  readonly default?: A
  /**
   * The default as the docs show it, when it is not the value itself written out: "(none)",
   * "`pretty` on a terminal, else `json`", a duration in hours. Durations must say it unless the
   * variable is an `_MS` one, so an hour is never shown as 3600000 by mistake.
   */
  readonly shown?: string
}

const written = (name: string, value: unknown): string => {
  if (Duration.isDuration(value)) {
    if (!name.endsWith("_MS")) throw new Error(`${name}: a duration's default must be given as shown text (its unit is not milliseconds)`)
    return String(Duration.toMillis(value))
  }
  if (Array.isArray(value)) return value.map((item) => written(name, item)).join(",")
  if (typeof value === "object" && value !== null) throw new Error(`${name}: an object default must be given as shown text`)
  return String(value)
}

/**
 * Declares the setting `name` read as `kind` reads it (a `ConfigValue` constructor, usually), with
 * its default and description: `declare({ name: "PORT", default: 8080, description: "…" }, ConfigValue.port)`.
 * Every error keeps `kind`'s sentence, "`NAME` must be …".
 */
export const declare = <A>(declaration: Declaration<A>, kind: (name: string) => Config.Config<A>): Setting<A> => {
  const { default: fallback, description, name, shown } = declaration
  const config = fallback === undefined ? kind(name) : Config.withDefault(kind(name), fallback)
  const doc: SettingDoc = {
    name,
    default: shown ?? (fallback === undefined ? "(none)" : `\`${written(name, fallback)}\``),
    description
  }
  return Object.assign(Config.withDescription(config, description), { setting: doc })
}

/** Whether `value` is a declared setting. */
export const isSetting = (value: unknown): value is Setting<unknown> =>
  Config.isConfig(value) && typeof (value as { readonly setting?: unknown }).setting === "object"

/** The docs of the declared settings among `values` (a module's record of declarations), in order. */
export const docsOf = (values: Iterable<unknown> | Readonly<Record<string, unknown>>): ReadonlyArray<SettingDoc> =>
  [...(Symbol.iterator in values ? values as Iterable<unknown> : Object.values(values))].filter(isSetting).map((value) => value.setting)
