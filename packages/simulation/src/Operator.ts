import {
  allConfirmationRules,
  type Network,
  SettingsService,
  TenantAdmin,
  type TenantId,
  type TenantScope,
  type WalletId,
  Wallets
} from "@collector/core"
import { Effect, Redacted } from "effect"
import type { Dice } from "./Dice"
import type { SimulatedNetwork } from "./SimulatedNetwork"
import type { Trace } from "./Trace"
import { receiverHost, type WorldParts } from "./World"

export interface SimWallet {
  readonly id: WalletId
  readonly address: string
  readonly customId: string
  readonly scope: TenantScope
}

export interface SimScope {
  readonly scope: TenantScope
  readonly appId: string
  readonly wallets: Array<SimWallet>
}

export interface SimTenant {
  readonly id: TenantId
  readonly name: string
  readonly scopes: ReadonlyArray<SimScope>
}

const usdt = (whole: bigint) => whole * 1_000_000n

/**
 * The tenants and the world outside the service, as the workload drives them: tenants created
 * by the operator, wallets created and funded, strangers paying each other. Everything goes
 * through the services the API's handlers call and the simulators' control surface; what it
 * did is recorded in the trace.
 */
export class Operator {
  readonly tenants: Array<SimTenant> = []

  constructor(private readonly world: WorldParts, private readonly dice: Dice, private readonly trace: Trace) {}

  networkOf(network: Network): SimulatedNetwork {
    return this.world.networks.find((n) => n.network === network)!
  }

  get scopes(): ReadonlyArray<SimScope> {
    return this.tenants.flatMap((t) => t.scopes)
  }

  get wallets(): ReadonlyArray<SimWallet> {
    return this.scopes.flatMap((s) => s.wallets)
  }

  /** A tenant on one or both networks, each with its own confirmation rule and a webhook to the receiver. */
  createTenant = Effect.gen(this, function*() {
    const admin = yield* TenantAdmin
    const settings = yield* SettingsService
    const networks = this.dice.pick<ReadonlyArray<Network>>([["nile"], ["main"], ["nile", "main"]])
    const name = `tenant-${this.tenants.length + 1}`
    const created = yield* admin.create(name, networks).pipe(Effect.orDie)
    const scopes: Array<SimScope> = []
    for (const credential of created.credentials) {
      const scope: TenantScope = { tenantId: created.tenant.id, network: credential.network }
      this.world.receiver.registerKey(credential.appId, Redacted.value(credential.webhookKey))
      yield* admin.setConfirmationRule(created.tenant.id, credential.network, this.dice.pick(allConfirmationRules)).pipe(Effect.orDie)
      yield* settings.setWebhook(scope, `https://${receiverHost}/hooks/${name}/${credential.network}`, true)
      scopes.push({ scope, appId: credential.appId, wallets: [] })
    }
    this.tenants.push({ id: created.tenant.id, name, scopes })
    this.trace.record(`tenant ${name} ${networks.join(",")}`)
  })

  createWallet = (scope: SimScope) =>
    Effect.gen(this, function*() {
      const customId = `w-${scope.wallets.length + 1}`
      const created = yield* Effect.flatMap(Wallets, (wallets) => wallets.create(scope.scope, customId)).pipe(Effect.orDie)
      scope.wallets.push({ id: created.id, address: created.address, customId, scope: scope.scope })
      this.trace.record(`wallet ${scope.scope.tenantId}/${scope.scope.network} ${customId} ${created.address}`)
    })

  mintUsdt = (wallet: SimWallet, amount: bigint) =>
    Effect.flatMap(Effect.orDie(this.networkOf(wallet.scope.network).sim.chain.mintUsdt(wallet.address, amount)), (txid) =>
      Effect.sync(() => this.trace.record(`mint ${wallet.address} ${amount} ${txid}`)))

  /** A step of the workload, drawn from its dice. */
  step = Effect.gen(this, function*() {
    const roll = this.dice.int(1, 100)
    if (this.tenants.length === 0 || (roll <= 5 && this.tenants.length < 4)) return yield* this.createTenant
    const scopes = this.scopes
    if (roll <= 20) return yield* this.createWallet(this.dice.pick(scopes))
    const wallets = this.wallets
    if (wallets.length === 0) return yield* this.createWallet(this.dice.pick(scopes))
    if (roll <= 70) return yield* this.mintUsdt(this.dice.pick(wallets), usdt(this.dice.amount(1n, 50n)) + this.dice.amount(0n, 999_999n))
  })
}
