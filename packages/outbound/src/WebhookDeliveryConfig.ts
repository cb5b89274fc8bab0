import { ConfigValue } from "@collector/core"
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
export const allowPrivateTargetsConfig: Config.Config<boolean> = ConfigValue.boolean("WEBHOOK_ALLOW_PRIVATE_TARGETS").pipe(Config.withDefault(false))

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
  const file = yield* Config.option(Config.nonEmptyString("WEBHOOK_EXTRA_CA_FILE"))
  if (Option.isNone(file)) return { allowPrivateTargets }
  return { allowPrivateTargets, extraCa: yield* readCaFile(file.value) }
})
