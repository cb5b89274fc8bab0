import { Context, Effect, Encoding, Layer, Redacted } from "effect"
import { defaultConfirmationRule } from "../settings/ConfirmationRule.js"
import { Entropy } from "../kernel/Entropy.js"
import type { AppId, TenantId } from "../kernel/Ids.js"
import type { Network } from "../kernel/Network.js"
import { appSecretContext, webhookKeyContext } from "../secrets/SealContext.js"
import { SecretBox } from "../secrets/SecretBox.js"
import type { TenantWithApps } from "./Tenant.js"
import { enabledConfirmationRule, enabledConfirmationRules, tenantName } from "./TenantPolicy.js"
import { TenantRepository } from "./TenantRepository.js"

/** Credentials shown to the operator exactly once, when created or rotated. */
export interface IssuedCredential {
  readonly network: Network
  readonly appId: AppId
  readonly appSecret: Redacted.Redacted<string>
  readonly webhookKey: Redacted.Redacted<string>
}

export interface CreatedTenant {
  readonly tenant: TenantWithApps
  readonly credentials: ReadonlyArray<IssuedCredential>
}

const encoder = new TextEncoder()

const make = Effect.gen(function*() {
  const repo = yield* TenantRepository
  const entropy = yield* Entropy
  const box = yield* SecretBox

  // The app secret is text (HMAC key = its UTF-8 bytes); the webhook key is 32 raw bytes.
  const newAppSecret = Effect.map(entropy.bytes(32), (b) => Encoding.encodeBase64Url(b))
  const newWebhookKey = entropy.bytes(32)

  const create = (requestedName: string, networks: ReadonlyArray<Network>) =>
    Effect.gen(function*() {
      const name = yield* tenantName(requestedName)
      const fresh = yield* Effect.forEach(networks, (network) =>
        Effect.gen(function*() {
          const secret = yield* newAppSecret
          const webhookKey = yield* newWebhookKey
          return { network, secret, webhookKey }
        }))
      // Sealed for the app's place, which its tenant ID names: drawn first, so that it is known here.
      const tenantId = yield* repo.reserveTenantId
      const tenant = yield* repo.create(
        name,
        yield* Effect.forEach(fresh, (f) =>
          Effect.gen(function*() {
            return {
              network: f.network,
              secret: yield* box.seal(encoder.encode(f.secret), appSecretContext(tenantId, f.network)),
              webhookKey: yield* box.seal(f.webhookKey, webhookKeyContext(tenantId, f.network)),
              confirmationRule: defaultConfirmationRule
            }
          })),
        tenantId
      )
      const credentials = fresh.map((f): IssuedCredential => ({
        network: f.network,
        appId: tenant.apps.find((a) => a.network === f.network)!.appId,
        appSecret: Redacted.make(f.secret),
        webhookKey: Redacted.make(Encoding.encodeBase64(f.webhookKey))
      }))
      return { tenant, credentials } satisfies CreatedTenant
    })

  const rotateSecret = (reference: string, network: Network) =>
    Effect.gen(function*() {
      const tenant = yield* repo.find(reference)
      const secret = yield* newAppSecret
      const appId = yield* repo.replaceSecret(tenant.id, network, yield* box.seal(encoder.encode(secret), appSecretContext(tenant.id, network)))
      return { appId, network, appSecret: Redacted.make(secret) }
    })

  const rotateWebhookKey = (reference: string, network: Network) =>
    Effect.gen(function*() {
      const tenant = yield* repo.find(reference)
      const key = yield* newWebhookKey
      const appId = yield* repo.replaceWebhookKey(tenant.id, network, yield* box.seal(key, webhookKeyContext(tenant.id, network)))
      return { appId, network, webhookKey: Redacted.make(Encoding.encodeBase64(key)) }
    })

  const withTenant = <A, E, R>(reference: string, f: (id: TenantId) => Effect.Effect<A, E, R>) =>
    Effect.flatMap(repo.find(reference), (t) => Effect.as(f(t.id), undefined))

  return {
    create,
    list: repo.list,
    find: repo.find,
    disable: (reference: string) => withTenant(reference, (id) => repo.setStatus(id, "disabled")),
    enable: (reference: string) => withTenant(reference, (id) => repo.setStatus(id, "active")),
    remove: (reference: string) => withTenant(reference, (id) => repo.setStatus(id, "deleted")),
    expire: (reference: string, at: Date | null) => withTenant(reference, (id) => repo.setExpiry(id, at)),
    /** Only a rule the platform enables (`CONFIRMATION_RULES`); anything else is TenantRejected. */
    setConfirmationRule: (reference: string, network: Network, rule: string) =>
      Effect.gen(function*() {
        const allowed = yield* enabledConfirmationRule(rule, yield* enabledConfirmationRules)
        return yield* withTenant(reference, (id) => repo.setConfirmationRule(id, network, allowed))
      }),
    /** The tenant's own deposit minimum on `network` in base units; null: the network's (`DepositMinimum.ts`). */
    setDepositMinimum: (reference: string, network: Network, minimum: bigint | null) =>
      withTenant(reference, (id) => repo.setDepositMinimum(id, network, minimum)),
    rotateSecret,
    rotateWebhookKey
  }
})

/** Operator use cases for tenants; secrets are generated here and stored only sealed. */
export class TenantAdmin extends Context.Tag("@collector/core/TenantAdmin")<TenantAdmin, Effect.Effect.Success<typeof make>>() {
  static readonly layer = Layer.effect(TenantAdmin, make)
}
