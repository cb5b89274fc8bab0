import { isIP } from "node:net"
import { Webhook } from "@collector/core"
import { type Config, type ConfigError, Duration, Effect, Layer } from "effect"
import { type Lookup, type LookupAddress, systemLookup } from "./Lookup.js"
import { isPublicUnicast } from "./PublicAddress.js"
import { allowPrivateTargetsConfig } from "./WebhookDeliveryConfig.js"

export interface Options {
  /**
   * Operator setting for tests and private deployments (`WEBHOOK_ALLOW_PRIVATE_TARGETS`): any
   * valid IP address is accepted (private, loopback, link-local, ...), and so is a port other
   * than 443, because tests and private deployments run receivers on other ports. The other
   * rules still apply: https only, no user info, no fragment, at most 2048 characters, and the
   * host must resolve. Without it a public target is never steered to another port.
   */
  readonly allowPrivateTargets?: boolean
  /** The resolver; the system resolver unless a test supplies a fixed table. */
  readonly lookup?: Lookup
  /** How long one resolution may take before the URL counts as unresolvable. */
  readonly lookupTimeout?: Duration.DurationInput
}

export const defaultLookupTimeout: Duration.Duration = Duration.seconds(5)

const rejected = (reason: string, detail?: string) => new Webhook.WebhookUrlRejected(detail === undefined ? { reason } : { reason, detail })

/**
 * Ends every refusal that `WEBHOOK_ALLOW_PRIVATE_TARGETS=true` would lift (a non-public address,
 * a port other than 443), so that a tenant learns whom to ask. Refusals the setting does not
 * lift (http, user info, a fragment, an unresolvable host) do not carry it.
 */
export const privateTargetsHint = "(an operator can allow private targets and other ports with WEBHOOK_ALLOW_PRIVATE_TARGETS=true)"

const errorCode = (error: unknown): string | undefined =>
  typeof error === "object" && error !== null && "code" in error ? String(error.code) : undefined

/**
 * Resolves with a deadline. The system resolver cannot be cancelled: on timeout the lookup
 * keeps its libuv thread until the OS gives up, but the caller is released at once.
 */
const resolve = (lookup: Lookup, timeout: Duration.Duration, host: string) =>
  Effect.tryPromise({
    try: () => lookup(host),
    catch: (error) => rejected(`webhook URL host ${host} could not be resolved (${errorCode(error) ?? "lookup failed"})`)
  }).pipe(
    Effect.timeoutFail({
      duration: timeout,
      onTimeout: () => rejected(`webhook URL host ${host} could not be resolved within ${Duration.format(timeout)}`)
    })
  )

/**
 * Checks a webhook URL and returns the addresses to deliver to. IP-literal hosts are judged
 * directly; names are resolved once and every answer must be public, because the delivery
 * may connect to any of them and a name that mixes public and private answers is the
 * classic DNS-rebinding setup. One bad answer rejects the whole URL. With `allowPrivateTargets`
 * every valid address passes and any port is kept; without it the port must be 443.
 */
export const make = (options: Options = {}): Webhook.WebhookTargets["Type"] => {
  const allowPrivateTargets = options.allowPrivateTargets ?? false
  const lookup = options.lookup ?? systemLookup
  const timeout = Duration.decode(options.lookupTimeout ?? defaultLookupTimeout)
  return {
    resolvePublic: (text) =>
      Effect.gen(function*() {
        // Parsed with any port allowed, so that the port refusal below can name the setting; a
        // non-canonical port spelling (`:0443`, `:0`) is still refused by the parser itself.
        const url = yield* Webhook.parseWebhookUrl(text, { allowAnyPort: true })
        if (!allowPrivateTargets && url.port !== 443) return yield* rejected(`webhook URL must use port 443 ${privateTargetsHint}`)
        const literal = url.hostKind !== "domain"
        const answers: ReadonlyArray<LookupAddress> = literal
          ? [{ address: url.host, family: isIP(url.host) }]
          : yield* resolve(lookup, timeout, url.host)
        const targets: Array<Webhook.ResolvedTarget> = []
        for (const address of new Set(answers.map((answer) => answer.address))) {
          // Re-derived from the text rather than trusted from the resolver.
          const family = isIP(address)
          if (family !== 4 && family !== 6) {
            return yield* rejected(`webhook URL host ${url.host} resolves to an invalid address`)
          }
          if (!allowPrivateTargets && !isPublicUnicast(address)) {
            return yield* rejected(
              literal
                ? `webhook URL host ${url.host} is not a public address ${privateTargetsHint}`
                : `webhook URL host ${url.host} does not resolve to public addresses only ${privateTargetsHint}`,
              literal ? undefined : `${url.host} resolves to ${address}`
            )
          }
          targets.push({ host: url.host, address, family, port: url.port })
        }
        if (targets.length === 0) return yield* rejected(`webhook URL host ${url.host} has no addresses`)
        return targets
      })
  }
}

export const layer = (options: Options = {}): Layer.Layer<Webhook.WebhookTargets> => Layer.succeed(Webhook.WebhookTargets, make(options))

// Both the API's URL check and the worker's delivery read the setting; one process running both
// (`npm start`) says it once.
let privateTargetsWarned = false

/** Said at start-up whenever private targets are allowed, once per process. */
export const privateTargetsWarning = Effect.suspend(() => {
  if (privateTargetsWarned) return Effect.void
  privateTargetsWarned = true
  return Effect.logWarning(
    "WEBHOOK_ALLOW_PRIVATE_TARGETS is on: webhooks may go to private, loopback and other non-public addresses and to ports other than 443"
  )
})

/**
 * The production layer: the system resolver, with private targets allowed only when `config`
 * (WEBHOOK_ALLOW_PRIVATE_TARGETS by default) says so. Warns at start-up when they are, since it
 * weakens SSRF protection.
 */
export const layerConfig = (config: Config.Config<boolean> = allowPrivateTargetsConfig): Layer.Layer<Webhook.WebhookTargets, ConfigError.ConfigError> =>
  Layer.effect(
    Webhook.WebhookTargets,
    Effect.gen(function*() {
      const allowPrivateTargets = yield* config
      if (allowPrivateTargets) yield* privateTargetsWarning
      return make({ allowPrivateTargets })
    })
  )
