import { HttpApiBuilder } from "@effect/platform"
import { ContractApi, CurrentApp } from "@collector/api"
import { Deposits, Engine, Storage, Sweeps, Wallets } from "@collector/core"
import { Clock, Effect } from "effect"
import { workerEntries } from "./EngineEntries.js"

export const DashboardHandlers = HttpApiBuilder.group(ContractApi, "dashboard", (handlers) =>
  Effect.gen(function*() {
    const wallets = yield* Wallets.Wallets
    const deposits = yield* Deposits.DepositRepository
    const sweeps = yield* Sweeps.Sweeps
    const board = yield* Engine.ComponentStatus
    const probe = yield* Storage.StorageProbe
    return handlers.handle("getDashboard", () =>
      Effect.gen(function*() {
        const app = yield* CurrentApp
        const started = yield* Clock.currentTimeMillis
        yield* Effect.orDie(probe.ping)
        const roundTrip = (yield* Clock.currentTimeMillis) - started
        // Independent reads, each one statement: run side by side.
        const { depositUsdt, pending, summary, workers } = yield* Effect.all({
          summary: wallets.summary(app),
          depositUsdt: deposits.confirmedTotal(app),
          pending: sweeps.pendingCount(app),
          workers: Effect.flatMap(board.list(app.network), workerEntries)
        }, { concurrency: "unbounded" })
        const now = new Date(yield* Clock.currentTimeMillis).toISOString()
        return {
          wallet_count: summary.walletCount,
          unsynced_wallet_count: summary.unsyncedWalletCount,
          balance_usdt: summary.balanceUsdt.toString(),
          balance_trx: summary.balanceTrx.toString(),
          collected_usdt: summary.collectedUsdt.toString(),
          deposit_usdt: depositUsdt.toString(),
          // Unfinished sweep tasks (pending through unknown).
          pending_tasks: pending,
          engine: [
            { component: "api", status: "ok", detail: "serving API version 6.0.0", updated_at: now },
            { component: "database", status: "ok", detail: `reachable, round trip ${roundTrip} ms`, updated_at: now },
            ...workers
          ],
          network: app.network
        }
      }))
  }))
