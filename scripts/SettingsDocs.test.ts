import { describe, expect, it } from "@effect/vitest"
import { Pkcs11Settings } from "@collector/pkcs11"
import { databaseConfig } from "@collector/postgres"
import { ApiProcess, WorkerProcess } from "@collector/server"
import { launchSettings, tracingConfig } from "@collector/launch"
import { simServerConfig } from "@collector/tron-sim"
import { masterKeyConfig } from "@collector/vault"
import { type Config, ConfigProvider, Effect } from "effect"
import { readFileSync } from "node:fs"
import { join, resolve } from "node:path"
import { crashPointConfig } from "../apps/worker/src/CrashPoint.js"
import { settingsGroups } from "./settings/SettingsRegistry.js"
import { documentsWithSettings, markedGroups, withSettingsTables } from "./settings/SettingsTables.js"

// The settings tables of the docs are generated from the declarations (`npm run docs:config`):
// a description changed in the code and not in the docs fails here, as does a variable a process
// reads that no table lists.
const root = resolve(import.meta.dirname, "..")
const documented = settingsGroups.flatMap((group) => group.settings.flatMap((setting) => setting.name.split("` / `")))

/** The variables `config` reads from `env`, whether or not it succeeds. */
const variablesRead = (config: Effect.Effect<unknown, unknown>, env: Record<string, string>) => {
  const read = new Set<string>()
  const provider = ConfigProvider.fromMap(new Map(Object.entries(env))).pipe(ConfigProvider.mapInputPath((name) => {
    read.add(name)
    return name
  }))
  Effect.runSync(Effect.either(Effect.withConfigProvider(config, provider)))
  return [...read]
}

describe("generated settings tables", () => {
  it.each(documentsWithSettings)("%s is what `npm run docs:config` writes", (file) => {
    const text = readFileSync(join(root, file), "utf8")
    expect(withSettingsTables(text, settingsGroups), `${file} is stale: run npm run docs:config`).toBe(text)
  })

  it("every group is shown exactly once, and every variable in one row only", () => {
    const marked = documentsWithSettings.flatMap((file) => markedGroups(readFileSync(join(root, file), "utf8")))
    expect([...marked].sort()).toEqual(settingsGroups.map((group) => group.id).sort())
    expect(documented.filter((name, i) => documented.indexOf(name) !== i)).toEqual([])
  })

  it("every variable the processes read is documented", () => {
    // Each environment takes a different branch (the simulated nile, CatFee and Merx in a list,
    // a PKCS#11 token, several nodes), so the variables read only there are read too.
    const environments: ReadonlyArray<Record<string, string>> = [
      {},
      {
        WORKER_NETWORKS: "main,nile",
        ENERGY_PROVIDERS_MAIN: "merx,catfee",
        ENERGY_PROVIDERS_NILE: "sim,sim-b",
        TRON_MAIN_NODE_URLS: "https://a.example,https://b.example",
        KEY_STORE: "pkcs11"
      },
      { ENERGY_PROVIDER_MAIN: "catfee", TRON_NILE_NODE_URL: "https://nile.example" }
    ]
    const configs: ReadonlyArray<Effect.Effect<unknown, unknown>> = [
      WorkerProcess.config,
      ApiProcess.checkSettings,
      databaseConfig,
      masterKeyConfig,
      simServerConfig,
      crashPointConfig,
      Pkcs11Settings.pkcs11Config,
      tracingConfig("worker"),
      ...launchSettings as ReadonlyArray<Config.Config<unknown>>
    ]
    const read = new Set(environments.flatMap((env) => configs.flatMap((config) => variablesRead(config, env))))
    expect([...read].filter((name) => !documented.includes(name)).sort()).toEqual([])
    // The check reads something: the worker alone reads dozens of variables.
    expect(read.size).toBeGreaterThan(100)
  })
})
