import {
  AccessTokenRepository,
  AutomationLedger,
  BalanceLedger,
  Chain,
  ComponentStatus,
  DeliveryLedger,
  DeliveryTransport,
  DepositBook,
  DepositRepository,
  EnergyProvider,
  IdempotencyStore,
  NotificationRepository,
  ScanLedger,
  SettingsRepository,
  StorageProbe,
  SweepRepository,
  TenantRepository,
  WalletRepository
} from "@collector/core"
import { Context, Effect, Layer } from "effect"
import type { PowerGate } from "./PowerGate.js"

/** Everything a worker reaches outside its process: the store, its network's node and provider, the receivers. */
const outside = [
  TenantRepository,
  AccessTokenRepository,
  IdempotencyStore,
  WalletRepository,
  SettingsRepository,
  StorageProbe,
  ScanLedger,
  DepositBook,
  DepositRepository,
  BalanceLedger,
  SweepRepository,
  AutomationLedger,
  NotificationRepository,
  DeliveryLedger,
  ComponentStatus,
  Chain,
  EnergyProvider,
  DeliveryTransport
] as const

type Outside = Context.Tag.Identifier<(typeof outside)[number]>

/**
 * The ports of one worker, each behind its power gate: the same store, node and receivers as
 * every other worker, cut off for this one alone when it crashes.
 */
export const gatedPorts = (gate: PowerGate): Layer.Layer<Outside, never, Outside> =>
  Layer.effectContext(Effect.map(Effect.context<Outside>(), (shared) => {
    let gated = Context.empty() as Context.Context<Outside>
    for (const tag of outside) {
      const service = Context.get(shared, tag as Context.Tag<Outside, object>)
      gated = Context.add(gated, tag as Context.Tag<Outside, object>, gate.service(service))
    }
    return gated
  }))
