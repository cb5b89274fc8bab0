import type { HttpRouter, HttpServer } from "@effect/platform"
import type { Kernel, Secrets, Storage, Sweeps, Wallets, Webhook } from "@collector/core"
import { describe, expect, expectTypeOf, it } from "@effect/vitest"
import type { Layer } from "effect"
import { readdirSync, readFileSync } from "node:fs"
import { join, relative } from "node:path"
import ts from "typescript"
import type { ApiLayer } from "./ApiServer.js"
import type { AccessLog } from "./gate/AccessLog.js"
import type { Gate } from "./gate/GateSettings.js"

/** The HTTP adapter serves the contract over ports: it never chooses a store, a vault or a chain. */
const allowed = ["@collector/core", "@collector/api", "effect", "@effect/platform", "@effect/platform-node"]

const packageRoot = join(import.meta.dirname, "..")
const manifest = JSON.parse(readFileSync(join(packageRoot, "package.json"), "utf8"))

// What a consumer of the package gets: its dependencies and its required peers (Effect's packages).
// Optional peers are for the `testing` entry, whose test server runs on real adapters.
const required = [
  ...Object.keys(manifest.dependencies ?? {}),
  ...Object.keys(manifest.peerDependencies ?? {}).filter((name) => manifest.peerDependenciesMeta?.[name]?.optional !== true)
]

// What ships outside the `testing` entry (tests and the test server are left out).
const shippedSources = (dir: string): ReadonlyArray<string> =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) return entry.name === "testing" ? [] : shippedSources(path)
    return entry.name.endsWith(".ts") && !entry.name.endsWith(".test.ts") ? [path] : []
  })

const packageOf = (specifier: string) => specifier.split("/").slice(0, specifier.startsWith("@") ? 2 : 1).join("/")

const importedPackages = (file: string) =>
  ts.preProcessFile(readFileSync(file, "utf8"), true, true).importedFiles
    .map(({ fileName }) => fileName)
    .filter((specifier) => !specifier.startsWith(".") && !specifier.startsWith("node:"))
    .map(packageOf)

describe("http-server depends on core and api only", () => {
  it("lists no dependency outside core, api and Effect's platform", () => {
    expect(required.filter((name) => !allowed.includes(name))).toEqual([])
  })

  // Workspaces hoist every package, so an import of one it does not list would still resolve.
  it("imports, outside its tests, only the packages it lists", () => {
    const listed = required
    const files = shippedSources(join(packageRoot, "src"))
    const unlisted = files.flatMap((file) =>
      importedPackages(file).filter((name) => !listed.includes(name)).map((name) => `${relative(packageRoot, file)}: ${name}`))
    expect(files.map((file) => relative(packageRoot, file))).toEqual(expect.arrayContaining(["src/ApiServer.ts", "src/handlers/SystemHandlers.ts"]))
    expect(unlisted).toEqual([])
  })
})

// Checked by the typecheck: given the storage ports of any store, what the API still needs is no
// storage at all (no SqlClient), only these.
expectTypeOf<Exclude<Layer.Layer.Context<typeof ApiLayer>, Storage.StoragePorts>>().toEqualTypeOf<
  | Secrets.SecretBox
  | Kernel.Entropy
  | Wallets.WalletKeys
  | Webhook.WebhookTargets
  | Sweeps.NetworkResources
  | Sweeps.SweepSettings
  | Gate
  | AccessLog
  | HttpServer.HttpServer
  | HttpRouter.HttpRouter.DefaultServices
>()
