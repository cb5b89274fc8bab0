import { Balances, Chain, Deposits, Energy, Engine, Idempotency, Notifications, Scanning, Settings, Storage, Sweeps, Tenants, Wallets } from "@collector/core"
import { Context, Effect, Layer } from "effect"
import type { PowerGate } from "./PowerGate.js"

/** Everything a worker reaches outside its process: the store, its network's node and provider, the receivers. */
const outside = [
  Tenants.TenantRepository,
  Tenants.AccessTokenRepository,
  Idempotency.IdempotencyStore,
  Wallets.WalletRepository,
  Settings.SettingsRepository,
  Storage.StorageProbe,
  Scanning.ScanLedger,
  Scanning.DepositBook,
  Deposits.DepositRepository,
  Balances.BalanceLedger,
  Sweeps.SweepRepository,
  Sweeps.AutomationLedger,
  Notifications.NotificationRepository,
  Notifications.DeliveryLedger,
  Engine.ComponentStatus,
  Chain.Chain,
  Energy.EnergyProvider,
  Notifications.DeliveryTransport
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
