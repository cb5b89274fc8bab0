import { type Kernel, Settings, Tenants } from "@collector/core"
import { Effect, Redacted } from "effect"
import { receiverHost } from "../ReceiverTargets.js"
import { configureAutomation, setCollectionAddress } from "./Automation.js"
import { drawCollectionKind } from "./CollectionAddresses.js"
import type { SimScope } from "./Population.js"
import type { Workload } from "./Workload.js"

export const webhookUrl = (tenantName: string, scope: SimScope) =>
  `https://${receiverHost}/hooks/${tenantName}/${scope.scope.network}/v${scope.webhookVersion}`

/**
 * A tenant on one or both networks, as the operator creates it: each network with its own
 * confirmation rule and a webhook to the receiver, most with a collection address (an outside
 * address right away; a wallet of its own or of another tenant once there is one) and an
 * automation policy set right away (the rest get them later, or never).
 */
export const createTenant = (workload: Workload) =>
  Effect.gen(function*() {
    const { dice, population, world } = workload
    const admin = yield* Tenants.TenantAdmin
    const networks = dice.pick<ReadonlyArray<Kernel.Network>>([["nile"], ["main"], ["nile", "main"]])
    const name = `tenant-${population.tenants.length + 1}`
    const created = yield* admin.create(name, networks).pipe(Effect.orDie)
    const scopes: Array<SimScope> = []
    for (const credential of created.credentials) {
      const scope: Tenants.TenantScope = { tenantId: created.tenant.id, network: credential.network }
      world.receiver.registerKey(credential.appId, Redacted.value(credential.webhookKey))
      const rule = dice.pick(Settings.allConfirmationRules)
      yield* admin.setConfirmationRule(created.tenant.id, credential.network, rule).pipe(Effect.orDie)
      world.ledger.recordScope({ tenantId: created.tenant.id, network: credential.network, tenantName: name, appId: credential.appId, rule })
      const simScope: SimScope = {
        scope,
        appId: credential.appId,
        appSecret: Redacted.value(credential.appSecret),
        wallets: [],
        webhookVersion: 1,
        webhookEnabled: true,
        automationEnabled: false,
        collectionKind: drawCollectionKind(dice)
      }
      scopes.push(simScope)
    }
    population.tenants.push({ id: created.tenant.id, name, scopes })
    workload.trace.record(`tenant ${name} ${networks.join(",")}`)
    for (const scope of scopes) {
      // The tenant's first call: its webhook, through the API like every later setting.
      yield* workload.replays.send({
        scope,
        operation: "settings.webhook",
        path: "/open/v1/settings/webhook",
        body: { url: webhookUrl(name, scope), enabled: true },
        expected: []
      })
      // A wallet as collection address waits for the wallet (the opening's, or a later step).
      if (scope.collectionKind !== "later") yield* setCollectionAddress(workload, scope)
      // Off at first (the caps still apply to manual sweeps): a scope's first round runs as soon
      // as automation is enabled, so it is enabled later, when there are balances to sweep.
      if (dice.chance(0.7)) yield* configureAutomation(workload, scope, 0)
    }
  })

/** A wallet of `scope`, created through the API's create operation (idempotent on its request_id). */
export const createWallet = (workload: Workload, scope: SimScope) =>
  Effect.gen(function*() {
    const customId = `w-${scope.wallets.length + 1}`
    const answer = yield* workload.replays.send({
      scope,
      operation: "wallets.create",
      path: "/open/v1/wallets",
      body: { custom_id: customId },
      expected: [],
      // The contract saves a taken custom_id under the request_id.
      savedRefusal: "BUSINESS_CONFLICT",
      conflicting: { body: { custom_id: `${customId}-other` } }
    })
    if (answer.status !== 200) return
    const created = answer.data as { readonly id: string; readonly address: string }
    scope.wallets.push({ id: created.id as Kernel.WalletId, address: created.address, customId, scope: scope.scope, funding: "none", mints: [] })
    workload.trace.record(`wallet ${scope.scope.tenantId}/${scope.scope.network} ${customId} ${created.address}`)
  })
