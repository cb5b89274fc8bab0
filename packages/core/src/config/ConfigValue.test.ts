import { describe, expect, it } from "@effect/vitest"
import { Config, ConfigProvider, Duration, Effect, Either, Option, Redacted } from "effect"
import * as ConfigValue from "./ConfigValue.js"

const read = <A>(config: Config.Config<A>, env: Record<string, string>) =>
  Effect.runSync(Effect.either(Effect.withConfigProvider(config, ConfigProvider.fromMap(new Map(Object.entries(env))))))

const value = <A>(config: Config.Config<A>, env: Record<string, string>) => Either.getOrThrow(read(config, env))

const message = <A>(config: Config.Config<A>, env: Record<string, string>) =>
  Either.match(read(config, env), { onLeft: String, onRight: (a) => `no error: ${String(a)}` })

describe("ConfigValue", () => {
  it("integer: whole numbers within bounds; anything else names the variable, the bounds and the unit", () => {
    const batch = ConfigValue.integer("BATCH", { min: 1, max: 1000, unit: "wallets" })
    expect(value(batch, { BATCH: " 24 " })).toBe(24)
    expect(value(batch, { BATCH: "1000" })).toBe(1000)
    for (const bad of ["0", "1001", "ten", "1.5", "12abc", "", "99999999999999999999"]) {
      expect(message(batch, { BATCH: bad })).toContain("BATCH must be a whole number from 1 to 1000 (wallets)")
    }
    const retries = ConfigValue.integer("RETRIES", { min: 0 })
    expect(value(retries, { RETRIES: "0" })).toBe(0)
    expect(message(retries, { RETRIES: "-1" })).toContain("RETRIES must be a whole number of at least 0")
    expect(message(retries, {})).toContain("RETRIES")
    expect(value(retries.pipe(Config.withDefault(3)), {})).toBe(3)
  })

  it("durations: whole numbers of their unit", () => {
    expect(value(ConfigValue.millis("POLL_MS", { min: 10 }), { POLL_MS: "250" })).toEqual(Duration.millis(250))
    expect(message(ConfigValue.millis("POLL_MS", { min: 10 }), { POLL_MS: "5" })).toContain("POLL_MS must be a whole number of at least 10 (milliseconds)")
    expect(value(ConfigValue.duration("HOURS", "hours", { min: 1, max: 720 }), { HOURS: "2" })).toEqual(Duration.hours(2))
    expect(value(ConfigValue.duration("EVERY_S", "seconds", { min: 1 }), { EVERY_S: "30" })).toEqual(Duration.seconds(30))
    expect(message(ConfigValue.duration("HOURS", "hours", { min: 1, max: 720 }), { HOURS: "721" })).toContain(
      "HOURS must be a whole number from 1 to 720 (hours)"
    )
  })

  it("positiveNumber: fractions above zero, up to the maximum", () => {
    const rate = ConfigValue.positiveNumber("RATE", 1000)
    expect(value(rate, { RATE: "1.2" })).toBe(1.2)
    expect(value(rate, { RATE: ".5" })).toBe(0.5)
    for (const bad of ["0", "-1", "1001", "fast", "1e3", "NaN"]) {
      expect(message(rate, { RATE: bad })).toContain("RATE must be a number greater than 0 and at most 1000")
    }
    expect(message(ConfigValue.positiveNumber("RATE"), { RATE: "0" })).toContain("RATE must be a number greater than 0")
  })

  it("port: 1 to 65535", () => {
    expect(value(ConfigValue.port("PORT"), { PORT: "8080" })).toBe(8080)
    for (const bad of ["0", "65536", "http"]) expect(message(ConfigValue.port("PORT"), { PORT: bad })).toContain("PORT must be a whole number from 1 to 65535")
  })

  it("baseUrl: http or https, trailing slashes dropped", () => {
    const url = ConfigValue.baseUrl("NODE_URL", "https://api.trongrid.io")
    expect(value(url, { NODE_URL: " http://127.0.0.1:8090// " })).toBe("http://127.0.0.1:8090")
    for (const bad of ["ftp://x", "not a url", ""]) {
      expect(message(url, { NODE_URL: bad })).toContain("NODE_URL must be an http(s) URL such as https://api.trongrid.io")
    }
  })

  it("boolean: true or false and their usual spellings", () => {
    const flag = ConfigValue.boolean("FLAG")
    for (const yes of ["true", "TRUE", "yes", "on", "1"]) expect(value(flag, { FLAG: yes })).toBe(true)
    for (const no of ["false", "no", "off", "0"]) expect(value(flag, { FLAG: no })).toBe(false)
    expect(message(flag, { FLAG: "maybe" })).toContain("FLAG must be true or false")
  })

  it("oneOf and listOf: the allowed values named in the message", () => {
    const kind = ConfigValue.oneOf("KIND", ["sim", "catfee", "none"], "(others are not supported)")
    expect(value(kind, { KIND: " CatFee " })).toBe("catfee")
    expect(message(kind, { KIND: "feee" })).toContain("KIND must be sim, catfee or none (others are not supported)")
    const networks = ConfigValue.networks("NETWORKS")
    expect(value(networks, { NETWORKS: "nile, main,nile," })).toEqual(["nile", "main"])
    for (const bad of ["", ",", "mars", "nile,mars"]) {
      expect(message(networks, { NETWORKS: bad })).toContain("NETWORKS must list one or more of main, nile, comma-separated")
    }
  })

  it("secret: absent or empty is none, and the value stays redacted", () => {
    const key = ConfigValue.secret("KEY")
    expect(value(key, {})).toEqual(Option.none())
    expect(value(key, { KEY: "  " })).toEqual(Option.none())
    const given = value(key, { KEY: "s3cret" })
    expect(Option.map(given, Redacted.value)).toEqual(Option.some("s3cret"))
    expect(String(Option.getOrThrow(given))).not.toContain("s3cret")
  })

  it("dataDir: DATA_DIR, .data by default", () => {
    expect(value(ConfigValue.dataDir, {})).toBe(".data")
    expect(value(ConfigValue.dataDir, { DATA_DIR: "/var/lib/collector" })).toBe("/var/lib/collector")
  })
})
