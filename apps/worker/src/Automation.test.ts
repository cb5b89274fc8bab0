import { Engine, Sweeps } from "@collector/core"
import { SqlClient } from "@effect/sql"
import { expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { noProvider, pass, runUntilDone, seedScope, Sim, type SweepScope, type SweepWallet, sweepWorld, taskOf } from "./testing/SweepHarness.js"
import { signAndBroadcast, usdtTransfer, wallet } from "@collector/tron-sim/testing"

const usdt = (whole: bigint) => whole * 1_000_000n
const trx = (whole: bigint) => whole * 1_000_000n

const world = sweepWorld(noProvider)

/** Automation on, threshold 10 USDT, as the tenant would set it. */
const enable = (scope: SweepScope) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) =>
    sql`UPDATE tenant_settings SET automation_enabled = true, automation_threshold = 10000000, automation_interval_minutes = 5,
        automation_updated_at = now()
        WHERE tenant_id = ${scope.tenantId} AND network = ${scope.network}`).pipe(Effect.orDie)

/** What balance sync would have written. */
const synced = (walletId: string, amount: bigint) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) =>
    sql`UPDATE wallets SET balance_usdt = ${amount.toString()}, balance_trx = 0, balance_block = 1 WHERE id = ${walletId}`).pipe(Effect.orDie)

/** An activated wallet with 50 USDT, as balance sync saw it, and `energy` delegated: it can pay its sweep. */
const funded = (w: SweepWallet, energy: bigint) =>
  Effect.gen(function*() {
    const sim = yield* Sim
    yield* sim.chain.activate(w.address, trx(1n))
    yield* sim.chain.mintUsdt(w.address, usdt(50n))
    yield* sim.chain.mine(1)
    yield* sim.chain.delegateEnergy(w.address, energy)
    yield* sim.chain.mine(25)
    yield* synced(w.walletId, usdt(50n))
  })

const tasksOf = (scope: SweepScope) =>
  Effect.flatMap(Sweeps.SweepRepository, (repo) => repo.list(scope, { page: 1, pageSize: 100 })).pipe(Effect.map((page) => page.items.map((v) => v.task)))

const tick = Effect.flatMap(Engine.Engine, (engine) => engine.automateOnce)

layer(world, { excludeTestServices: true, timeout: 120_000 })("automation", (it) => {
  it.effect("on each interval, wallets at or above the threshold that can pay get a task; the rest are left alone", () =>
    Effect.gen(function*() {
      const sim = yield* Sim
      const scope = yield* seedScope(4, { rentalAllowed: false })
      const [rich, poor, unpayable, later] = scope.wallets
      for (const w of [rich!, poor!, later!]) yield* sim.chain.activate(w.address, trx(1n))
      yield* sim.chain.activate(unpayable!.address, trx(1n))
      yield* sim.chain.mintUsdt(rich!.address, usdt(50n))
      yield* sim.chain.mintUsdt(poor!.address, usdt(5n))
      yield* sim.chain.mintUsdt(unpayable!.address, usdt(40n))
      yield* sim.chain.mine(1)
      yield* sim.chain.delegateEnergy(rich!.address, 200_000n)
      yield* sim.chain.delegateEnergy(later!.address, 200_000n)
      yield* sim.chain.mine(25)
      yield* synced(rich!.walletId, usdt(50n))
      yield* synced(poor!.walletId, usdt(5n))
      yield* synced(unpayable!.walletId, usdt(40n))
      yield* enable(scope)

      yield* tick
      const first = yield* tasksOf(scope)
      expect(first.map((t) => [t.walletId, t.origin, t.mode])).toEqual([[rich!.walletId, "automation", "all"]])
      // Not due again until the interval has passed, even with a new candidate.
      yield* sim.chain.mintUsdt(later!.address, usdt(12n))
      yield* sim.chain.mine(25)
      yield* synced(later!.walletId, usdt(12n))
      yield* tick
      expect(yield* tasksOf(scope)).toHaveLength(1)

      const { task } = yield* runUntilDone(scope, first[0]!.id)
      expect(task.status).toBe("succeeded")
      // The interval has passed (with a minute to spare: the database's now() has microseconds, and
      // a tick in the same millisecond as this update would otherwise find the round not yet due).
      yield* Effect.flatMap(SqlClient.SqlClient, (sql) =>
        sql`UPDATE tenant_settings SET automation_last_run_at = now() - interval '6 minutes' WHERE tenant_id = ${scope.tenantId}`).pipe(Effect.orDie)
      yield* tick
      const second = yield* tasksOf(scope)
      expect(second.map((t) => t.walletId)).toEqual([later!.walletId, rich!.walletId])
    }))

  it.effect("a round claimed by a worker that died is claimed again once the claim runs out, not an interval later", () =>
    Effect.gen(function*() {
      const ledger = yield* Sweeps.AutomationLedger
      const scope = yield* seedScope(1, { rentalAllowed: false })
      const w = scope.wallets[0]!
      yield* funded(w, 200_000n)
      yield* enable(scope)
      // Another worker claims the round for 1.5 s and dies before running it.
      const now = Date.now()
      const claimed = yield* ledger.claimDue("nile", new Date(now), new Date(now + 1_500), 50)
      expect(claimed.map((d) => d.scope.tenantId)).toContain(scope.tenantId)
      yield* tick
      expect(yield* tasksOf(scope)).toHaveLength(0)
      yield* Effect.sleep("1600 millis")
      yield* tick
      expect((yield* tasksOf(scope)).map((t) => [t.walletId, t.origin])).toEqual([[w.walletId, "automation"]])
      // The finished round is marked: the next is an interval away.
      yield* tick
      expect(yield* tasksOf(scope)).toHaveLength(1)
      const [row] = yield* Effect.flatMap(SqlClient.SqlClient, (sql) =>
        sql<{ last: Date | null; claimed: Date | null }>`
          SELECT automation_last_run_at AS last, automation_round_claimed_until AS claimed
          FROM tenant_settings WHERE tenant_id = ${scope.tenantId} AND network = 'nile'`).pipe(Effect.orDie)
      expect(row!.last).not.toBeNull()
      expect(row!.claimed).toBeNull()
      // The dead worker's late finish (its claim was taken over) changes nothing.
      yield* ledger.finishRound(scope, new Date(now), new Date(now + 1_500))
      const [after] = yield* Effect.flatMap(SqlClient.SqlClient, (sql) =>
        sql<{ last: Date | null }>`
          SELECT automation_last_run_at AS last FROM tenant_settings WHERE tenant_id = ${scope.tenantId} AND network = 'nile'`).pipe(Effect.orDie)
      expect(after!.last).toEqual(row!.last)
    }))

  it.effect("a disabled policy or tenant gets no round", () =>
    Effect.gen(function*() {
      const scope = yield* seedScope(1, { rentalAllowed: false })
      const w = scope.wallets[0]!
      yield* funded(w, 200_000n)
      yield* tick
      expect(yield* tasksOf(scope)).toHaveLength(0)
      yield* enable(scope)
      yield* Effect.flatMap(SqlClient.SqlClient, (sql) => sql`UPDATE tenants SET status = 'disabled' WHERE id = ${scope.tenantId}`).pipe(Effect.orDie)
      yield* tick
      expect(yield* tasksOf(scope)).toHaveLength(0)
      // Enabled again, the same scope gets its round: the ticks above had a sweep to start and did not.
      yield* Effect.flatMap(SqlClient.SqlClient, (sql) => sql`UPDATE tenants SET status = 'active' WHERE id = ${scope.tenantId}`).pipe(Effect.orDie)
      yield* tick
      expect(yield* tasksOf(scope)).toHaveLength(1)
    }))

  it.effect("an automation task whose wallet fell below the threshold before preparation is cancelled, not swept for dust", () =>
    Effect.gen(function*() {
      const sim = yield* Sim
      const scope = yield* seedScope(1, { rentalAllowed: false })
      const w = scope.wallets[0]!
      yield* funded(w, 400_000n)
      yield* enable(scope)
      yield* tick
      const [task] = yield* tasksOf(scope)
      expect(task).toMatchObject({ origin: "automation", minimumAmount: usdt(10n) })
      // The wallet's owner moves most of it away before the sweeper gets to the task.
      const own = wallet(w.index)
      yield* signAndBroadcast(sim.chain, yield* usdtTransfer(sim.chain, own, wallet(2).address, usdt(45n), trx(20n)), own)
      yield* sim.chain.mine(25)
      yield* pass()
      const after = yield* taskOf(scope, task!.id)
      expect(after.status).toBe("cancelled")
      expect(after.reason).toContain("below the automation threshold")
    }))
})
