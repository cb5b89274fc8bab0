import type { Kernel } from "@collector/core"
import { Effect } from "effect"
import type { Dice } from "./Dice.js"
import type { Trace } from "./Trace.js"
import { configureAutomation, enableAutomation, setCollectionAddress } from "./workload/Automation.js"
import { fundWallet, mintMany, mintUsdt, otherToken } from "./workload/Funding.js"
import { Outcomes } from "./workload/Outcomes.js"
import { Population, type SimScope, type SimTenant, type SimWallet } from "./workload/Population.js"
import { Replays } from "./workload/Replays.js"
import { requestSweep } from "./workload/SweepRequests.js"
import { createTenant, createWallet } from "./workload/Tenants.js"
import { changeWebhook, redeliver } from "./workload/WebhookChanges.js"
import type { Workload } from "./workload/Workload.js"
import type { WorldParts } from "./WorldParts.js"

/** Steps after which sweeps and automation come more often (the opening's payments are buried by then). */
const sweepsFrom = 10

export type { SimScope, SimTenant, SimWallet } from "./workload/Population.js"

/**
 * The tenants and the world outside the service, as the workload drives them: tenants created by
 * the operator, their wallets, settings, sweeps, webhooks and replayed requests, strangers paying
 * the wallets USDT, the other token, TRX and energy. Everything goes through the services the
 * API's handlers call (with their idempotency) and the simulators' control surface; what it did
 * is recorded in the trace, and a failure the workload did not expect is reported to `defect`.
 */
export class Operator {
  private readonly population = new Population()
  private readonly workload: Workload

  constructor(private readonly world: WorldParts, private readonly dice: Dice, trace: Trace, defect: (message: string) => void) {
    const outcomes = new Outcomes(trace, defect)
    const replays = new Replays(world.api, dice.stream("replays"), trace, outcomes, world.ledger)
    this.workload = { world, population: this.population, dice, trace, outcomes, replays }
  }

  get tenants(): ReadonlyArray<SimTenant> {
    return this.population.tenants
  }

  get scopes(): ReadonlyArray<SimScope> {
    return this.population.scopes
  }

  get wallets(): ReadonlyArray<SimWallet> {
    return this.population.wallets
  }

  /** The collection address of every scope that has one (also in `world.ledger`). */
  get collectionAddresses(): ReadonlyArray<{ readonly tenantId: Kernel.TenantId; readonly network: Kernel.Network; readonly address: string }> {
    return this.world.ledger.collectionAddresses
  }

  /**
   * The opening, before the first step: two tenants with a few wallets each, every wallet paid
   * and most funded (the run then buries these payments, so they are sweepable from the start).
   */
  opening = Effect.gen(this, function*() {
    const { dice, population, workload } = this
    for (let i = 0; i < 2; i++) yield* createTenant(workload)
    for (const scope of population.scopes) {
      for (let i = dice.int(2, 3); i > 0; i--) yield* createWallet(workload, scope)
    }
    for (const wallet of population.wallets) {
      yield* mintUsdt(workload, wallet)
      if (dice.chance(0.6)) yield* fundWallet(workload, wallet)
    }
    // The scopes whose collection address is to be a wallet, now that there are wallets.
    for (const scope of population.scopes) {
      const unset = this.world.ledger.collectionAddressOf(scope.scope.tenantId, scope.scope.network) === undefined
      if (unset && (scope.collectionKind === "own-wallet" || scope.collectionKind === "other-tenant")) yield* setCollectionAddress(workload, scope)
    }
  })

  private steps = 0

  /** A step of the workload, drawn from its dice: past the first third, sweeps and automation come more often. */
  step = Effect.gen(this, function*() {
    const { dice, population, workload } = this
    this.steps++
    const roll = dice.int(1, 100)
    if (roll <= 3 && population.tenants.length < 4) return yield* createTenant(workload)
    const scopes = population.scopes
    const wallets = population.wallets
    if (roll <= 12 || wallets.length === 0) return yield* createWallet(workload, dice.pick(scopes))
    if (this.steps > sweepsFrom && roll <= 38) return yield* requestSweep(workload, dice.pick(scopes))
    if (this.steps > sweepsFrom && roll <= 44) return yield* enableAutomation(workload)
    if (roll <= 36) return yield* mintUsdt(workload, dice.pick(wallets))
    if (roll <= 44) return yield* mintMany(workload, population.walletsOn(dice.pick(wallets).scope.network))
    if (roll <= 48) return yield* otherToken(workload, dice.pick(wallets))
    if (roll <= 58) {
      const unfunded = wallets.filter((w) => w.funding === "none")
      return yield* fundWallet(workload, dice.pick(unfunded.length > 0 && dice.chance(0.8) ? unfunded : wallets))
    }
    if (roll <= 70) return yield* requestSweep(workload, dice.pick(scopes))
    if (roll <= 76) return yield* configureAutomation(workload, dice.pick(scopes))
    if (roll <= 78) {
      const unset = scopes.filter((s) => this.world.ledger.collectionAddressOf(s.scope.tenantId, s.scope.network) === undefined)
      if (unset.length > 0) return yield* setCollectionAddress(workload, dice.pick(unset))
      return
    }
    if (roll <= 84) return yield* changeWebhook(workload, dice.pick(scopes))
    if (roll <= 90) return yield* redeliver(workload, dice.pick(scopes))
    return yield* workload.replays.replayOne
  })
}
