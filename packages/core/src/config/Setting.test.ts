import { describe, expect, it } from "@effect/vitest"
import { Config, ConfigProvider, Duration, Effect, Either } from "effect"
import * as ConfigValue from "./ConfigValue.js"
import * as Setting from "./Setting.js"

const read = <A>(config: Config.Config<A>, env: Record<string, string>) =>
  Effect.runSync(Effect.either(Effect.withConfigProvider(config, ConfigProvider.fromMap(new Map(Object.entries(env))))))

describe("Setting.declare", () => {
  const batch = Setting.declare({ name: "BATCH", default: 20, description: "Wallets per batch." }, (name) => ConfigValue.integer(name, { min: 1 }))

  it("reads the variable as its kind does, the default when unset, and the kind's sentence when bad", () => {
    expect(read(batch, { BATCH: "7" })).toEqual(Either.right(7))
    expect(read(batch, {})).toEqual(Either.right(20))
    expect(Either.match(read(batch, { BATCH: "0" }), { onLeft: String, onRight: String })).toContain("BATCH must be a whole number of at least 1")
  })

  it("carries what the docs show: the name, the default as written in an env file, the description", () => {
    expect(batch.setting).toEqual({ name: "BATCH", default: "`20`", description: "Wallets per batch." })
    const poll = Setting.declare({ name: "POLL_MS", default: Duration.seconds(2), description: "d" }, (name) => ConfigValue.millis(name, { min: 1 }))
    expect(poll.setting.default).toBe("`2000`")
    const list = Setting.declare({ name: "NETS", default: ["main", "nile"] as const, description: "d" }, (name) => ConfigValue.listOf(name, ["main", "nile"] as const))
    expect(list.setting.default).toBe("`main,nile`")
    const optional = Setting.declare({ name: "KEY", description: "d" }, ConfigValue.secret)
    expect(optional.setting.default).toBe("(none)")
  })

  it("refuses a duration default it could only show in the wrong unit", () => {
    expect(() => Setting.declare({ name: "LIMIT_HOURS", default: Duration.hours(24), description: "d" }, (name) => ConfigValue.duration(name, "hours", { min: 1 })))
      .toThrow("LIMIT_HOURS: a duration's default must be given as shown text")
    const shown = Setting.declare({ name: "LIMIT_HOURS", default: Duration.hours(24), shown: "`24`", description: "d" }, (name) =>
      ConfigValue.duration(name, "hours", { min: 1 }))
    expect(shown.setting.default).toBe("`24`")
  })

  it("docsOf lists the declarations among a module's values, in order, and nothing else", () => {
    const other = Setting.declare({ name: "OTHER", default: false, description: "e" }, ConfigValue.boolean)
    expect(Setting.docsOf({ batch, plain: Config.succeed(1), other }).map((doc) => doc.name)).toEqual(["BATCH", "OTHER"])
    expect(Setting.docsOf([other, batch]).map((doc) => doc.name)).toEqual(["OTHER", "BATCH"])
  })
})
