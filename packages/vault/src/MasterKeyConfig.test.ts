import { randomBytes } from "node:crypto"
import { mkdtemp, readFile, readdir, rm, stat, writeFile } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { describe, expect, it } from "@effect/vitest"
import { ConfigProvider, Effect, Logger, Redacted } from "effect"
import { MasterKey } from "./MasterKey.js"
import { loadMasterKeys, MasterKeyConfigError } from "./MasterKeyConfig.js"
import { MasterKeyring } from "./MasterKeyring.js"

const withEnv = (env: Record<string, string>) =>
  Effect.withConfigProvider(ConfigProvider.fromMap(new Map(Object.entries(env))))

/** A fresh directory removed when the test's scope closes. */
const tempDir = Effect.acquireRelease(
  Effect.promise(() => mkdtemp(join(tmpdir(), "vault-master-key-"))),
  (dir) => Effect.promise(() => rm(dir, { recursive: true, force: true }))
)

const b64 = (length: number) => randomBytes(length).toString("base64")

/** Loads with the given env and returns the failure, checking it never echoes `secret`. */
const loadError = (env: Record<string, string>, ...secrets: ReadonlyArray<string>) =>
  Effect.gen(function*() {
    const dir = yield* tempDir
    const error = yield* loadMasterKeys(join(dir, ".data")).pipe(Effect.flip, withEnv(env))
    expect(error).toBeInstanceOf(MasterKeyConfigError)
    expect(error._tag).toBe("MasterKeyConfigError")
    for (const secret of secrets) expect(error.message).not.toContain(secret.trim())
    // Failing on configuration must not leave a generated key behind.
    expect(yield* Effect.promise(() => readdir(dir))).toEqual([])
    return error.message
  })

/** Captures log lines so the warning about a generated key can be checked. */
const captureLogs = () => {
  const lines: Array<string> = []
  const logger = Logger.replace(
    Logger.defaultLogger,
    Logger.make(({ logLevel, message }) => lines.push(`${logLevel.label} ${Array.isArray(message) ? message.join(" ") : String(message)}`))
  )
  return { lines, logger }
}

describe("loadMasterKeys from MASTER_KEY", () => {
  it.scoped("uses MASTER_KEY and MASTER_KEY_PREVIOUS", () =>
    Effect.gen(function*() {
      const dir = yield* tempDir
      const current = randomBytes(32)
      const old1 = randomBytes(32)
      const old2 = randomBytes(32)
      const keys = yield* loadMasterKeys(dir).pipe(withEnv({
        MASTER_KEY: `${current.toString("base64")}\n`,
        MASTER_KEY_PREVIOUS: ` ${old1.toString("base64")} ,${old2.toString("base64")},`,
        DATABASE_URL: "postgres://u:p@db/collector"
      }))
      expect(Redacted.value(keys.current.bytes)).toEqual(Uint8Array.from(current))
      expect(keys.current.id).toBe(MasterKey.idOf(current))
      expect(keys.previous.map((k) => k.id)).toEqual([MasterKey.idOf(old1), MasterKey.idOf(old2)])
      // An explicit key never touches the data dir.
      expect(yield* Effect.promise(() => readdir(dir))).toEqual([])
    }))

  it.scoped("rejects text that is not base64", () =>
    Effect.gen(function*() {
      const bad = "this-is-not:base64!!" + "A".repeat(24)
      const message = yield* loadError({ MASTER_KEY: bad }, bad)
      expect(message).toBe(
        "MASTER_KEY is not valid base64: expected base64 of exactly 32 bytes (generate one with `openssl rand -base64 32`)"
      )
    }))

  it.scoped("rejects base64 of 31 bytes", () =>
    Effect.gen(function*() {
      const bad = b64(31)
      const message = yield* loadError({ MASTER_KEY: bad }, bad)
      expect(message).toMatch(/^MASTER_KEY decodes to 31 bytes: expected base64 of exactly 32 bytes/)
    }))

  it.scoped("rejects base64 of 33 bytes", () =>
    Effect.gen(function*() {
      const bad = b64(33)
      const message = yield* loadError({ MASTER_KEY: bad }, bad)
      expect(message).toMatch(/^MASTER_KEY decodes to 33 bytes: expected base64 of exactly 32 bytes/)
    }))

  it.scoped("rejects base64 without padding or with junk Node would silently skip", () =>
    Effect.gen(function*() {
      const good = b64(32)
      for (const bad of [good.replace(/=+$/, ""), `${good.slice(0, 20)}*${good.slice(20)}`, `${good.slice(0, 20)} ${good.slice(20)}`]) {
        expect(yield* loadError({ MASTER_KEY: bad }, bad)).toMatch(/^MASTER_KEY is not valid base64/)
      }
    }))

  it.scoped("rejects an empty MASTER_KEY instead of falling back to a generated key", () =>
    Effect.gen(function*() {
      expect(yield* loadError({ MASTER_KEY: "  " })).toMatch(/^MASTER_KEY is empty: expected base64 of exactly 32 bytes/)
    }))

  it.scoped("names the bad MASTER_KEY_PREVIOUS entry without echoing it", () =>
    Effect.gen(function*() {
      const bad = b64(16)
      const message = yield* loadError({ MASTER_KEY: b64(32), MASTER_KEY_PREVIOUS: `${b64(32)},${bad}` }, bad)
      expect(message).toMatch(/^MASTER_KEY_PREVIOUS entry 2 decodes to 16 bytes: expected base64 of exactly 32 bytes/)
    }))

  it.scoped("requires MASTER_KEY when DATABASE_URL is set", () =>
    Effect.gen(function*() {
      const message = yield* loadError({ DATABASE_URL: "postgres://user:hunter2@db/collector" }, "hunter2")
      expect(message).toBe(
        "MASTER_KEY is required when DATABASE_URL is set: generate one with `openssl rand -base64 32`"
      )
    }))
})

describe("loadMasterKeys embedded default", () => {
  it.scoped("generates <dataDir>/master.key once with mode 0600, then reuses it", () =>
    Effect.gen(function*() {
      const dataDir = join(yield* tempDir, "nested", ".data")
      const file = join(dataDir, "master.key")
      const logs = captureLogs()

      const first = yield* loadMasterKeys(dataDir).pipe(withEnv({}), Effect.provide(logs.logger))
      const stored = yield* Effect.promise(() => readFile(file, "utf8"))
      expect(Buffer.from(stored.trim(), "base64")).toEqual(Buffer.from(Redacted.value(first.current.bytes)))
      expect((yield* Effect.promise(() => stat(file))).mode & 0o777).toBe(0o600)
      expect(yield* Effect.promise(() => readdir(dataDir))).toEqual(["master.key"])
      expect(logs.lines).toHaveLength(1)
      expect(logs.lines[0]).toMatch(/^WARN Generated a new master key in .*master\.key because MASTER_KEY is not set\. Back this file up/)
      expect(logs.lines[0]).not.toContain(stored.trim())

      const second = yield* loadMasterKeys(dataDir).pipe(withEnv({}), Effect.provide(logs.logger))
      expect(second.current.id).toBe(first.current.id)
      expect(yield* Effect.promise(() => readFile(file, "utf8"))).toBe(stored)
      expect(logs.lines[1]).toMatch(/^WARN Using the generated master key in .*master\.key/)
    }))

  it.scoped("says once, at load, that MASTER_KEY overrides a generated master.key, unless it is the same key or the caller is quiet", () =>
    Effect.gen(function*() {
      const dataDir = join(yield* tempDir, ".data")
      const file = join(dataDir, "master.key")
      const logs = captureLogs()
      const generated = yield* loadMasterKeys(dataDir).pipe(withEnv({}), Effect.provide(logs.logger))
      expect(generated.origin).toBe(`the generated key file ${file}`)
      const other = randomBytes(32).toString("base64")
      const overridden = yield* loadMasterKeys(dataDir).pipe(withEnv({ MASTER_KEY: other }), Effect.provide(logs.logger))
      expect(overridden.origin).toBe("MASTER_KEY")
      expect(logs.lines.slice(1)).toEqual([
        `WARN MASTER_KEY is set, so the generated master key in ${file} is not used. ` +
        "If the data was sealed under that key, list it in MASTER_KEY_PREVIOUS and run `npm run cli -- keys reseal`."
      ])
      const stored = yield* Effect.promise(() => readFile(file, "utf8"))
      yield* loadMasterKeys(dataDir).pipe(withEnv({ MASTER_KEY: stored.trim() }), Effect.provide(logs.logger))
      yield* loadMasterKeys(dataDir, { quiet: true }).pipe(withEnv({ MASTER_KEY: other }), Effect.provide(logs.logger))
      expect(logs.lines).toHaveLength(2)
      expect(logs.lines.join("\n")).not.toContain(stored.trim())
    }))

  it.scoped("applies MASTER_KEY_PREVIOUS on top of the generated key", () =>
    Effect.gen(function*() {
      const dir = yield* tempDir
      const old = randomBytes(32)
      const keys = yield* loadMasterKeys(dir).pipe(withEnv({ MASTER_KEY_PREVIOUS: old.toString("base64") }))
      expect(keys.previous.map((k) => k.id)).toEqual([MasterKey.idOf(old)])
    }))

  it.scoped("reports a corrupt master.key by path without echoing its content", () =>
    Effect.gen(function*() {
      const dir = yield* tempDir
      const content = b64(20)
      yield* Effect.promise(() => writeFile(join(dir, "master.key"), content, { mode: 0o600 }))
      const error = yield* loadMasterKeys(dir).pipe(Effect.flip, withEnv({}))
      expect(error.message).toBe(
        `master key file ${join(dir, "master.key")} decodes to 20 bytes: expected base64 of exactly 32 bytes (generate one with \`openssl rand -base64 32\`)`
      )
      expect(error.message).not.toContain(content)
    }))

  it.scoped("ends with one key when several loads race on an empty dir", () =>
    Effect.gen(function*() {
      for (let round = 0; round < 20; round++) {
        const dataDir = join(yield* tempDir, ".data")
        const results = yield* Effect.all(Array.from({ length: 4 }, () => loadMasterKeys(dataDir)), {
          concurrency: "unbounded"
        }).pipe(withEnv({}))
        expect(new Set(results.map((keys) => keys.current.id)).size).toBe(1)
        const stored = yield* Effect.promise(() => readFile(join(dataDir, "master.key"), "utf8"))
        expect(MasterKey.idOf(Buffer.from(stored.trim(), "base64"))).toBe(results[0]!.current.id)
        // Losing writers clean up their temp files.
        expect(yield* Effect.promise(() => readdir(dataDir))).toEqual(["master.key"])
      }
    }))
})

describe("MasterKeyring.layerConfig", () => {
  it.scoped("builds the keyring service from config", () =>
    Effect.gen(function*() {
      const current = randomBytes(32)
      const ring = yield* MasterKeyring.pipe(
        Effect.provide(MasterKeyring.layerConfig()),
        withEnv({ MASTER_KEY: current.toString("base64"), DATA_DIR: yield* tempDir })
      )
      expect(ring.current.id).toBe(MasterKey.idOf(current))
    }))
})
