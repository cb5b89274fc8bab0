import { SettingsService } from "@collector/core"
import { Effect, Schema } from "effect"
import { AutomationAnswer, CollectionAnswer, presentAutomation, presentCollection } from "./Answers"
import { collectionAddressFor } from "./CollectionAddresses"
import type { SimScope } from "./Population"
import { trx, usdt, type Workload } from "./Workload"

// These writes save no rejection, as their handlers.
const nothingSaved = Schema.Never

/** Sets the scope's collection address, the one the workload owns for it (the ledger records it). */
export const setCollectionAddress = (workload: Workload, scope: SimScope) =>
  Effect.gen(function*() {
    const { tenantId, network } = scope.scope
    const address = collectionAddressFor(workload.world.seed, tenantId, network)
    yield* workload.replays.send("settings.collection", {
      scope: scope.scope,
      operation: "settings.collection",
      body: { address },
      schemas: { success: CollectionAnswer, rejection: nothingSaved },
      work: Effect.map(Effect.flatMap(SettingsService, (settings) => settings.setCollectionAddress(scope.scope, address)), presentCollection),
      expected: []
    })
    workload.world.ledger.setCollectionAddress(tenantId, network, address)
  })

/**
 * A new automation policy for the scope, drawn so that every fee path is reachable: on or off, a
 * threshold low enough for the workload's mints (a scope's first round runs as soon as it is
 * enabled, later ones on its interval), wallet TRX caps from generous to none, rental
 * allowed or not, with a generous or a tight rental cap.
 */
export const configureAutomation = (workload: Workload, scope: SimScope, enabledChance = 0.6) =>
  Effect.gen(function*() {
    const { dice } = workload
    const policy = () => ({
      enabled: dice.chance(enabledChance),
      threshold: usdt(dice.amount(5n, 60n)),
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
    const set = (p: typeof chosen) => Effect.map(Effect.flatMap(SettingsService, (settings) => settings.setAutomation(scope.scope, p)), presentAutomation)
    yield* workload.replays.send("settings.automation", {
      scope: scope.scope,
      operation: "settings.automation",
      body: bodyOf(chosen),
      schemas: { success: AutomationAnswer, rejection: nothingSaved },
      work: set(chosen),
      expected: [],
      conflicting: { body: bodyOf(other), work: set(other) }
    })
  })
