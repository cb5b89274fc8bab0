import { Config, ConfigError, Either, Option, Redacted } from "effect"
import { readFileSync } from "node:fs"

/** How to reach the token that holds the wallet keys (KEY_STORE=pkcs11; docs/configuration.md). */
export interface Pkcs11Settings {
  /** Path of the vendor's PKCS#11 module (a shared library), e.g. /usr/lib/softhsm/libsofthsm2.so. */
  readonly module: string
  /** The token, by its label or by its slot id. */
  readonly token: { readonly label: string } | { readonly slot: bigint }
  /** The user PIN; redacted everywhere it could be printed. */
  readonly pin: Redacted.Redacted<string>
  /** Sessions opened at start: one signature or key generation runs on each at a time. */
  readonly sessions: number
  /** Each wallet key is labelled this prefix and the wallet's ID; deployments sharing a token need different prefixes. */
  readonly labelPrefix: string
}

/** The label prefix when PKCS11_LABEL_PREFIX is not set: an operator can tell our objects from others in a shared token. */
export const defaultLabelPrefix = "collector-wallet-"

const tokenConfig = Config.all({
  label: Config.option(Config.nonEmptyString("PKCS11_TOKEN_LABEL")),
  slot: Config.option(Config.nonEmptyString("PKCS11_SLOT"))
}).pipe(Config.mapOrFail(({ label, slot }): Either.Either<Pkcs11Settings["token"], ConfigError.ConfigError> =>
  Option.isSome(label)
    ? Either.right({ label: label.value })
    : Option.isSome(slot)
    ? /^[0-9]{1,20}$/.test(slot.value)
      ? Either.right({ slot: BigInt(slot.value) })
      : Either.left(ConfigError.InvalidData([], `PKCS11_SLOT must be a slot id (digits), got "${slot.value}"`))
    : Either.left(ConfigError.MissingData([], "KEY_STORE=pkcs11 needs PKCS11_TOKEN_LABEL (the token's label) or PKCS11_SLOT (its slot id)"))
))

// A PIN file is read once at start and trimmed of its line ending; it wins over PKCS11_PIN so a
// deployment can keep the PIN out of the environment (where `ps e` and crash dumps can show it).
const pinConfig = Config.all({
  file: Config.option(Config.nonEmptyString("PKCS11_PIN_FILE")),
  pin: Config.option(Config.redacted("PKCS11_PIN"))
}).pipe(Config.mapOrFail(({ file, pin }): Either.Either<Redacted.Redacted<string>, ConfigError.ConfigError> => {
  if (Option.isSome(file)) {
    try {
      return Either.right(Redacted.make(readFileSync(file.value, "utf8").replace(/\r?\n$/, "")))
    } catch (error) {
      const code = (error as { code?: string }).code ?? "unreadable"
      return Either.left(ConfigError.InvalidData([], `PKCS11_PIN_FILE ${file.value} cannot be read (${code})`))
    }
  }
  return Option.isSome(pin)
    ? Either.right(pin.value)
    : Either.left(ConfigError.MissingData([], "KEY_STORE=pkcs11 needs PKCS11_PIN_FILE (a file holding the user PIN) or PKCS11_PIN"))
}))

export const pkcs11Config: Config.Config<Pkcs11Settings> = Config.all({
  module: Config.option(Config.nonEmptyString("PKCS11_MODULE")).pipe(Config.mapOrFail((module) =>
    Option.isSome(module)
      ? Either.right(module.value)
      : Either.left(ConfigError.MissingData([], "KEY_STORE=pkcs11 needs PKCS11_MODULE, the path of the token's PKCS#11 module"))
  )),
  token: tokenConfig,
  pin: pinConfig,
  sessions: Config.integer("PKCS11_SESSIONS").pipe(
    Config.withDefault(4),
    Config.validate({ message: "PKCS11_SESSIONS must be between 1 and 64", validation: (n) => n >= 1 && n <= 64 })
  ),
  // Printable and short: a CKA_LABEL is UTF-8 shown by every token tool, and the ID adds up to 19 digits.
  labelPrefix: Config.string("PKCS11_LABEL_PREFIX").pipe(
    Config.withDefault(defaultLabelPrefix),
    Config.validate({ message: "PKCS11_LABEL_PREFIX must be 1 to 40 characters of letters, digits, '-', '_' or '.'", validation: (p) => /^[A-Za-z0-9._-]{1,40}$/.test(p) })
  )
})
