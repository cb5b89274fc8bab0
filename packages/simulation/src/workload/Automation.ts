import { Effect } from "effect"
import { collectionAddressFor } from "./CollectionAddresses.js"
import { type SimScope, solidUsdt } from "./Population.js"
import { headOf, trx, usdt, type Workload } from "./Workload.js"

/** The address the scope's collection kind names now; undefined while there is no such wallet yet. */
const collectionTarget = (workload: Workload, scope: SimScope): string | undefined => {
  const { tenantId, network } = scope.scope
  switch (scope.collectionKind) {
    case "own-wallet":
      return scope.wallets.length === 0 ? undefined : workload.dice.pick(scope.wallets).address
    case "other-tenant": {
      const others = workload.population.walletsOn(network).filter((w) => w.scope.tenantId !== tenantId)
      return others.length === 0 ? undefined : workload.dice.pick(others).address
    }
    default:
      return collectionAddressFor(workload.world.seed, tenantId, network)
  }
}

/**
 * Sets the scope's collection address as its kind says (the ledger records it): an address the
 * workload owns, one of the scope's wallets, or a wallet of another tenant on the network. A
 * wallet kind with no wallet yet leaves it unset, for a later step.
 */
export const setCollectionAddress = (workload: Workload, scope: SimScope) =>
  Effect.gen(function*() {
    const { tenantId, network } = scope.scope
    const address = collectionTarget(workload, scope)
    if (address === undefined) return
    const answer = yield* workload.replays.send({
      scope,
      operation: "settings.collection",
      path: "/open/v1/settings/addresses/collection",
      body: { address },
      expected: []
    })
    if (answer.status !== 200) return
    workload.world.ledger.setCollectionAddress(tenantId, network, address)
    workload.world.paths.count(`collection.${scope.collectionKind}`)
    workload.trace.record(`collection ${tenantId}/${network} ${scope.collectionKind} ${address}`)
  })

/**
 * A new automation policy for the scope, drawn so that every fee path is reachable: on or off, a
 * threshold low enough for the workload's mints (a scope's first round runs as soon as it is
 * enabled, later ones on its interval), wallet TRX caps from generous to none, rental
 * allowed or not, with a generous or a tight rental cap.
 */
export const configureAutomation = (workload: Workload, scope: SimScope, enabledChance = 0.6, maxThreshold = usdt(30n)) =>
  Effect.gen(function*() {
    const { dice } = workload
    const policy = () => ({
      enabled: dice.chance(enabledChance),
      threshold: dice.amount(usdt(1n), maxThreshold > usdt(1n) ? maxThreshold : usdt(1n)),
      intervalMinutes: 5,
      maxWalletTrxFee: dice.pick([trx(15n), trx(15n), trx(8n), 0n]),
      maxRentalCost: dice.pick([trx(21n), trx(21n), trx(3n)]),
      rentalAllowed: dice.chance(0.65)
    })
    const chosen = policy()
    const other = { ...chosen, threshold: chosen.threshold + 1n }
    const bodyOf = (p: typeof chosen) => ({
      enabled: p.enabled,
      threshold: String(p.threshold),
      interval_minutes: p.intervalMinutes,
      max_wallet_trx_fee: String(p.maxWalletTrxFee),
      max_rental_cost: String(p.maxRentalCost),
      rental_allowed: p.rentalAllowed
    })
    const answer = yield* workload.replays.send({
      scope,
      operation: "settings.automation",
      path: "/open/v1/settings/automation",
      body: bodyOf(chosen),
      expected: [],
      conflicting: { body: bodyOf(other) }
    })
    if (answer.status === 200 && answer.data.enabled === true) scope.automationEnabled = true
  })

/**
 * Turns automation on for a scope that never had it on, once one of its wallets holds solidified
 * USDT: the scope's first round runs at once and, with a threshold below that balance, finds it
 * (whether it sweeps it is the estimate's decision: the fee caps, rental allowed or not).
 */
export const enableAutomation = (workload: Workload) =>
  Effect.gen(function*() {
    const candidates: Array<{ readonly scope: SimScope; readonly most: bigint }> = []
    for (const scope of workload.population.scopes) {
      if (scope.automationEnabled) continue
      const head = yield* headOf(workload, scope.scope.network)
      const most = scope.wallets.reduce((max, w) => {
        const solid = solidUsdt(w, head)
        return solid > max ? solid : max
      }, 0n)
      if (most >= usdt(2n)) candidates.push({ scope, most })
    }
    if (candidates.length === 0) return
    const { most, scope } = workload.dice.pick(candidates)
    yield* configureAutomation(workload, scope, 0.95, most)
  })
