import { randomBytes } from "node:crypto"
import { link, mkdir, open, readFile, unlink } from "node:fs/promises"
import { join } from "node:path"
import { Setting } from "@collector/core"
import { Config, ConfigError, Data, Effect, Either, Option, Redacted } from "effect"
import { MasterKey } from "./MasterKey.js"

/** Why the master keys could not be loaded; the message never contains key material. */
export class MasterKeyConfigError extends Data.TaggedError("MasterKeyConfigError")<{ readonly message: string }> {}

const expected = `base64 of exactly ${MasterKey.length} bytes (generate one with \`openssl rand -base64 32\`)`

/** Strict standard base64 with padding; Node's decoder silently skips junk, so check first. */
const base64Pattern = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/

/**
 * Decodes key text. Every message names where the text came from and what is expected,
 * but never echoes the text itself: a typo'd key is still mostly a key.
 */
const decodeKey = (source: string, text: string): Either.Either<MasterKey, string> => {
  // Surrounding whitespace is tolerated: files end with a newline, env files get pasted.
  const trimmed = text.trim()
  if (trimmed === "") return Either.left(`${source} is empty: expected ${expected}`)
  const bytes = Buffer.from(trimmed, "base64")
  // The round trip rejects non-canonical text (non-zero padding bits) that the pattern lets through.
  if (!base64Pattern.test(trimmed) || bytes.toString("base64") !== trimmed) {
    return Either.left(`${source} is not valid base64: expected ${expected}`)
  }
  if (bytes.length !== MasterKey.length) {
    return Either.left(`${source} decodes to ${bytes.length} bytes: expected ${expected}`)
  }
  return Either.right(MasterKey.unsafeMake(bytes))
}

const keyConfig = (name: string) =>
  Config.redacted(name).pipe(
    Config.mapOrFail((value) =>
      Either.mapLeft(decodeKey(name, Redacted.value(value)), (message) => ConfigError.InvalidData([], message))
    )
  )

/** Comma-separated older keys; empty entries (e.g. a trailing comma) are ignored. */
const previousKeysConfig = (name: string) => Config.redacted(name).pipe(
  Config.mapOrFail((value) => {
    const entries = Redacted.value(value).split(",").map((entry) => entry.trim()).filter((entry) => entry !== "")
    return Either.all(
      entries.map((entry, index) => decodeKey(`${name} entry ${index + 1}`, entry))
    ).pipe(Either.mapLeft((message) => ConfigError.InvalidData([], message)))
  }),
  Config.withDefault<ReadonlyArray<MasterKey>>([])
)

/** `MASTER_KEY` and `MASTER_KEY_PREVIOUS`, for the docs and the processes alike. */
export const masterKeySettings = {
  current: Setting.declare({
    name: "MASTER_KEY",
    shown: "(generated)",
    description:
      "Base64 of 32 bytes; seals app secrets, webhook keys and wallet keys (AES-256-GCM). Required with `DATABASE_URL`. Without `DATABASE_URL` a key is generated once into `DATA_DIR/master.key` (mode 0600) with a warning; set while such a file holds another key, the start says once that the file is not used. A key that opens none of the stored values (the key check sealed at the first start) stops every process and CLI command with one line naming `MASTER_KEY`, `MASTER_KEY_PREVIOUS` and where the current key came from ([deployment.md](deployment.md#key-rotation))."
  }, (name) => Config.option(keyConfig(name))),
  previous: Setting.declare({
    name: "MASTER_KEY_PREVIOUS",
    shown: "(none)",
    description:
      "Comma-separated older master keys, still accepted for opening sealed values during a rotation. Once `npm run cli -- keys reseal` has sealed everything under `MASTER_KEY`, a start logs that it can be removed (`keys status` says the same)."
  }, previousKeysConfig)
}

/** Everything the environment says about master keys; the file fallback is applied later. */
export const masterKeyConfig = Config.all({
  ...masterKeySettings,
  // Only presence matters; redacted because database URLs usually carry a password.
  databaseUrl: Config.option(Config.redacted("DATABASE_URL"))
})

/** Our own InvalidData messages already name the variable, so show them without Effect's framing. */
const describeConfigError = (error: ConfigError.ConfigError): string => {
  switch (error._op) {
    case "And":
    case "Or":
      return `${describeConfigError(error.left)}; ${describeConfigError(error.right)}`
    default:
      return error.message
  }
}

const errorCode = (error: unknown): string | undefined =>
  typeof error === "object" && error !== null && "code" in error ? String(error.code) : undefined

const fileError = (what: string, file: string) => (error: unknown) =>
  new MasterKeyConfigError({
    message: `could not ${what} master key file ${file}: ${errorCode(error) ?? String(error)}`
  })

/** The key file's text, or None when it does not exist yet. */
const readKeyFile = (file: string) =>
  Effect.tryPromise({
    try: async () => {
      try {
        return Option.some(await readFile(file, "utf8"))
      } catch (error) {
        if (errorCode(error) === "ENOENT") return Option.none<string>()
        throw error
      }
    },
    catch: fileError("read", file)
  })

const parseKeyFile = (file: string, text: string) =>
  Either.match(decodeKey(`master key file ${file}`, text), {
    onLeft: (message) => Effect.fail(new MasterKeyConfigError({ message })),
    onRight: Effect.succeed
  })

/**
 * Creates the key file unless it exists, and says whether this call created it.
 * Written to a private temp file first, then hard-linked into place: `link` never replaces
 * an existing file, so when two processes start at once exactly one key wins, and nobody
 * can observe a half-written file. Synced before linking because losing this file after a
 * crash would make every stored secret unreadable.
 */
const createKeyFile = (dataDir: string, file: string) =>
  Effect.tryPromise({
    try: async () => {
      // The directory stays traversable: the embedded PostgreSQL runs as another OS user and keeps
      // its cluster here too. The key file itself is 0600.
      await mkdir(dataDir, { recursive: true, mode: 0o755 })
      const temp = join(dataDir, `.master.key.${process.pid}.${randomBytes(8).toString("hex")}.tmp`)
      const handle = await open(temp, "wx", 0o600)
      try {
        try {
          await handle.writeFile(`${randomBytes(MasterKey.length).toString("base64")}\n`)
          await handle.sync()
        } finally {
          await handle.close()
        }
        await link(temp, file)
        return true
      } catch (error) {
        if (errorCode(error) === "EEXIST") return false
        throw error
      } finally {
        await unlink(temp).catch(() => undefined)
      }
    },
    catch: fileError("create", file)
  })

export interface KeyFileOptions {
  /**
   * No warning for using an existing key file (a tool run many times, like the CLI, beside the
   * service that already warned); generating one is always said.
   */
  readonly quiet?: boolean
}

/**
 * Embedded mode without MASTER_KEY: use `<dataDir>/master.key`, generating it on first start
 * so that a local install works out of the box. The warning is repeated on every start of a
 * service because this key lives next to the data it protects and is easy to lose.
 */
const loadOrCreateKeyFile = (dataDir: string, options: KeyFileOptions) =>
  Effect.gen(function*() {
    const file = join(dataDir, "master.key")
    const existing = yield* readKeyFile(file)
    if (Option.isSome(existing)) {
      if (options.quiet === true) return yield* parseKeyFile(file, existing.value)
      yield* Effect.logWarning(
        `Using the generated master key in ${file} because MASTER_KEY is not set. ` +
          "Back this file up: losing it makes every stored secret unreadable."
      )
      return yield* parseKeyFile(file, existing.value)
    }
    const created = yield* createKeyFile(dataDir, file)
    // Re-read even when we created it, so every racing process ends up with the same key.
    const text = yield* readKeyFile(file).pipe(
      Effect.flatMap(Option.match({
        onNone: () => Effect.fail(new MasterKeyConfigError({ message: `master key file ${file} vanished after creation` })),
        onSome: Effect.succeed
      }))
    )
    yield* Effect.logWarning(
      `${created ? "Generated a new" : "Using the newly generated"} master key in ${file} because MASTER_KEY is not set. ` +
        "Back this file up: losing it makes every stored secret unreadable. Set MASTER_KEY for production."
    )
    return yield* parseKeyFile(file, text)
  })

/**
 * Loads the master keys:
 * - MASTER_KEY (base64 of 32 bytes) is the current key; MASTER_KEY_PREVIOUS lists older ones.
 * - Without MASTER_KEY, an external database (DATABASE_URL) is an error: a key generated on
 *   one host would silently differ from the key on the next host sharing that database.
 * - Without either, the embedded default keeps a generated key in `<dataDir>/master.key`.
 */
export const loadMasterKeys = (
  dataDir: string,
  options: KeyFileOptions = {}
): Effect.Effect<
  { readonly current: MasterKey; readonly previous: ReadonlyArray<MasterKey>; readonly origin: string },
  MasterKeyConfigError
> =>
  Effect.gen(function*() {
    const config = yield* masterKeyConfig.pipe(
      Effect.mapError((error) => new MasterKeyConfigError({ message: describeConfigError(error) }))
    )
    if (Option.isSome(config.current)) {
      // A key generated on an earlier embedded start is easy to forget once MASTER_KEY is set,
      // and it is the key that opens what was stored back then: say once that it is not used.
      const file = join(dataDir, "master.key")
      const generated = options.quiet === true
        ? Option.none<string>()
        : yield* readKeyFile(file).pipe(Effect.orElseSucceed(() => Option.none<string>()))
      const sameKey = Option.exists(generated, (text) => Either.getOrUndefined(decodeKey(file, text))?.id === Option.getOrThrow(config.current).id)
      if (Option.isSome(generated) && !sameKey) {
        yield* Effect.logWarning(
          `MASTER_KEY is set, so the generated master key in ${file} is not used. ` +
            "If the data was sealed under that key, list it in MASTER_KEY_PREVIOUS and run `npm run cli -- keys reseal`."
        )
      }
      return { current: config.current.value, previous: config.previous, origin: "MASTER_KEY" }
    }
    if (Option.isSome(config.databaseUrl)) {
      return yield* new MasterKeyConfigError({
        message: "MASTER_KEY is required when DATABASE_URL is set: generate one with `openssl rand -base64 32`"
      })
    }
    const current = yield* loadOrCreateKeyFile(dataDir, options)
    return { current, previous: config.previous, origin: `the generated key file ${join(dataDir, "master.key")}` }
  })
