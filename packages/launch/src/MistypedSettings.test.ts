import { describe, expect, it } from "@effect/vitest"
import { editDistance, mistypedSettings } from "./MistypedSettings.js"

const read = new Set(["PORT", "OPERATOR_PORT", "WEBHOOK_ALLOW_PRIVATE_TARGETS", "LOG_LEVEL", "TRON_SIM_PORT", "TRON_SIM_HOST", "DATA_DIR"])

describe("mistypedSettings", () => {
  it("edit distances as a person counts them (a swap is one edit)", () => {
    const table: ReadonlyArray<readonly [string, string, number]> = [
      ["PROT", "PORT", 1],
      ["PORT", "PORT", 0],
      ["HOST", "PORT", 2],
      ["LOGLEVEL", "LOG_LEVEL", 1],
      ["WEBHOOK_ALLOW_PRIVATE_TARGET", "WEBHOOK_ALLOW_PRIVATE_TARGETS", 1],
      ["", "ABC", 3]
    ]
    for (const [a, b, d] of table) expect(editDistance(a, b), `${a} ${b}`).toBe(d)
  })

  it("reports names a slip away from a setting read, with the setting meant", () => {
    const env = { PROT: "9000", WEBHOOK_ALLOW_PRIVATE_TARGET: "true", LOGLEVEL: "debug", PORT: "8080" }
    expect(mistypedSettings(env, read)).toEqual([
      { name: "LOGLEVEL", meant: "LOG_LEVEL" },
      { name: "PROT", meant: "PORT" },
      { name: "WEBHOOK_ALLOW_PRIVATE_TARGET", meant: "WEBHOOK_ALLOW_PRIVATE_TARGETS" }
    ])
  })

  it("leaves alone the names that were read, the shell's own, lower-case ones and another process's settings", () => {
    const env = {
      PORT: "1",
      TRON_SIM_HOST: "x",
      HOST: "box",
      HOME: "/root",
      PATH: "/bin",
      TERM: "xterm",
      PWD: "/",
      npm_config_cache: "/c",
      SWEEP_CONCURRENCY: "8",
      NODE_ENV: "production"
    }
    expect(mistypedSettings(env, read)).toEqual([])
  })
})
