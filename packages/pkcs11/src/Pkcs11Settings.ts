import { ConfigValue, Setting } from "@collector/core"
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

const optionalPath = (name: string) => Config.option(Config.nonEmptyString(name))

/** The `PKCS11_*` variables, read with `KEY_STORE=pkcs11`. */
export const pkcs11Settings = {
  module: Setting.declare({
    name: "PKCS11_MODULE",
    description:
      "With `KEY_STORE=pkcs11`, required: path of the token's PKCS#11 module, e.g. `/usr/lib/softhsm/libsofthsm2.so`. A module that cannot be loaded stops the start in one line."
  }, optionalPath),
  label: Setting.declare({
    name: "PKCS11_TOKEN_LABEL",
    description:
      "With `KEY_STORE=pkcs11`: the token's label. Or `PKCS11_SLOT` (the slot id, digits); one of the two is required. An absent token stops the start, naming the tokens present."
  }, optionalPath),
  slot: Setting.declare({
    name: "PKCS11_SLOT",
    description: "With `KEY_STORE=pkcs11` and no `PKCS11_TOKEN_LABEL`: the token's slot id (digits)."
  }, optionalPath),
  pinFile: Setting.declare({
    name: "PKCS11_PIN_FILE",
    description:
      "With `KEY_STORE=pkcs11`: a file holding the user PIN (one trailing newline is dropped); read once at start and preferred over `PKCS11_PIN`, the PIN in the environment. One of the two is required. The PIN is never logged; it is tried once at start (a wrong one stops the start with `CKR_PIN_INCORRECT` rather than spending the token's tries)."
  }, optionalPath),
  pin: Setting.declare({
    name: "PKCS11_PIN",
    description: "With `KEY_STORE=pkcs11` and no `PKCS11_PIN_FILE`: the user PIN. Kept redacted, never logged."
  }, (name) => Config.option(Config.redacted(name))),
  sessions: Setting.declare({
    name: "PKCS11_SESSIONS",
    default: 4,
    description:
      "With `KEY_STORE=pkcs11`: sessions opened on the token (1 to 64), so at most this many signatures and key generations run at once per process."
  }, (name) => ConfigValue.integer(name, { min: 1, max: 64 })),
  // Printable and short: a CKA_LABEL is UTF-8 shown by every token tool, and the ID adds up to 19 digits.
  labelPrefix: Setting.declare({
    name: "PKCS11_LABEL_PREFIX",
    default: defaultLabelPrefix,
    description:
      "With `KEY_STORE=pkcs11`: each wallet key is labelled this and the wallet's id (1 to 40 letters, digits, `-`, `_`, `.`). Deployments sharing one token need different prefixes."
  }, (name) =>
    Config.string(name).pipe(
      Config.validate({ message: `${name} must be 1 to 40 characters of letters, digits, '-', '_' or '.'`, validation: (p) => /^[A-Za-z0-9._-]{1,40}$/.test(p) })
    ))
}

const tokenConfig = Config.all({ label: pkcs11Settings.label, slot: pkcs11Settings.slot }).pipe(Config.mapOrFail(({ label, slot }): Either.Either<Pkcs11Settings["token"], ConfigError.ConfigError> =>
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
const pinConfig = Config.all({ file: pkcs11Settings.pinFile, pin: pkcs11Settings.pin }).pipe(Config.mapOrFail(({ file, pin }): Either.Either<Redacted.Redacted<string>, ConfigError.ConfigError> => {
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
  module: pkcs11Settings.module.pipe(Config.mapOrFail((module) =>
    Option.isSome(module)
      ? Either.right(module.value)
      : Either.left(ConfigError.MissingData([], "KEY_STORE=pkcs11 needs PKCS11_MODULE, the path of the token's PKCS#11 module"))
  )),
  token: tokenConfig,
  pin: pinConfig,
  sessions: pkcs11Settings.sessions,
  labelPrefix: pkcs11Settings.labelPrefix
})
