import { ConfigValue, Setting } from "@collector/core"
import { Config, ConfigError, Effect, Option } from "effect"
import { readFile } from "node:fs/promises"

/** The operator's outbound webhook settings; see docs/configuration.md. */
export interface WebhookDeliverySettings {
  /** `WEBHOOK_ALLOW_PRIVATE_TARGETS`: private/loopback answers and ports other than 443 accepted. */
  readonly allowPrivateTargets: boolean
  /** The PEM text of `WEBHOOK_EXTRA_CA_FILE`, trusted in addition to Node's bundled CAs. */
  readonly extraCa?: string
}

/** `WEBHOOK_ALLOW_PRIVATE_TARGETS`: off unless set to true. */
export const allowPrivateTargetsConfig: Setting.Setting<boolean> = Setting.declare({
  name: "WEBHOOK_ALLOW_PRIVATE_TARGETS",
  default: false,
  description:
    "Operator setting for tests and private deployments. It lifts exactly two URL rules: with `true`, a webhook URL's host may be or resolve to any IP address (private, loopback, link-local, CGNAT and every other non-public address, also mixed with public answers), **and** the URL may name any port from 1 to 65535 instead of 443. Everything else stays: `https` only (an `http` URL is refused either way), no user info, no fragment, at most 2048 characters, a host name must resolve within 5 s, the certificate is verified against the URL's host (Node's CAs plus `WEBHOOK_EXTRA_CA_FILE`), no redirects. Read by the API (checked when `POST /open/v1/settings/webhook` saves a URL) and by the worker (checked again before every attempt, and the connection goes to the checked address and port); set it the same on both: a URL the API accepted but the worker refuses fails every attempt with `target refused: …`. Logged as a warning at start. Off (the default), every A/AAAA answer must be public unicast and the port absent or 443, and a URL refused for either reason gets a message ending `(an operator can allow private targets and other ports with WEBHOOK_ALLOW_PRIVATE_TARGETS=true)`. A local receiver: [notifications-receiver.md](notifications-receiver.md#a-receiver-on-your-own-machine-or-network)."
}, ConfigValue.boolean)

/** `WEBHOOK_EXTRA_CA_FILE`: its path; the file is read and checked by `webhookDeliveryConfig`. */
export const extraCaFileSetting = Setting.declare({
  name: "WEBHOOK_EXTRA_CA_FILE",
  description:
    "Path of a PEM file with one or more CA certificates trusted **in addition to** Node's bundled CAs, e.g. a private CA. Read and checked at start: a missing file or one without `-----BEGIN CERTIFICATE-----` stops the worker with a message naming the variable. Certificate verification is never switched off."
}, (name) => Config.option(Config.nonEmptyString(name)))

/** The outbound settings, for the docs. */
export const webhookDeliverySettings = [allowPrivateTargetsConfig, extraCaFileSetting] as const

const invalid = (message: string) => ConfigError.InvalidData(["WEBHOOK_EXTRA_CA_FILE"], message)

const pemCertificate = /-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/

/** Reads and checks the CA file, so a wrong path stops the process at start, not at the first delivery. */
const readCaFile = (path: string) =>
  Effect.tryPromise({
    try: () => readFile(path, "utf8"),
    catch: (error) =>
      invalid(`WEBHOOK_EXTRA_CA_FILE ${path} could not be read (${typeof error === "object" && error !== null && "code" in error ? String(error.code) : String(error)})`)
  }).pipe(
    Effect.filterOrFail(
      (text) => pemCertificate.test(text),
      () => invalid(`WEBHOOK_EXTRA_CA_FILE ${path} holds no PEM certificate (expected "-----BEGIN CERTIFICATE-----")`)
    )
  )

/** `WEBHOOK_ALLOW_PRIVATE_TARGETS` and `WEBHOOK_EXTRA_CA_FILE`, whose file is read and checked here. */
export const webhookDeliveryConfig: Effect.Effect<WebhookDeliverySettings, ConfigError.ConfigError> = Effect.gen(function*() {
  const allowPrivateTargets = yield* allowPrivateTargetsConfig
  const file = yield* extraCaFileSetting
  if (Option.isNone(file)) return { allowPrivateTargets }
  return { allowPrivateTargets, extraCa: yield* readCaFile(file.value) }
})
