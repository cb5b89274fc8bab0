import { SqlClient } from "@effect/sql"
import { expect, layer } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { PgSweepRepository } from "@collector/postgres"
import { exited } from "../../../test-support/ChildExit.js"
import { eventually } from "../../../test-support/Eventually.js"
import { startTs } from "../../../test-support/Processes.js"
import { DatabaseUrl, ProcessWorld } from "./testing/ProcessWorld.js"
import { seedScope, Sim, sweepWorkerEnv } from "./testing/SweepHarness.js"

const usdt = (whole: bigint) => whole * 1_000_000n

const workerEnv = (databaseUrl: string, nodeUrl: string, startBlock: bigint, crashAt?: string) => ({
  ...sweepWorkerEnv(databaseUrl, nodeUrl, startBlock, crashAt),
  AUTOMATION_TICK_MS: "200",
  // A dead worker's round is claimed again after this; the scope's interval is 5 minutes.
  AUTOMATION_ROUND_CLAIM_MS: "3000"
})

const roundOf = (tenantId: string) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) =>
    Effect.all({
      settings: sql<{ last_run: Date | null; claimed_until: Date | null }>`
        SELECT automation_last_run_at AS last_run, automation_round_claimed_until AS claimed_until
        FROM tenant_settings WHERE tenant_id = ${tenantId} AND network = 'nile'`,
      tasks: sql<{ wallet_id: string; origin: string }>`SELECT wallet_id::text, origin FROM sweep_tasks WHERE tenant_id = ${tenantId}`
    })).pipe(Effect.orDie, Effect.map(({ settings, tasks }) => ({ ...settings[0]!, tasks })))

const world = Layer.provideMerge(PgSweepRepository.layer, ProcessWorld)

layer(world, { excludeTestServices: true, timeout: 300_000 })("automation in worker processes", (it) => {
  it.scoped("a worker killed right after claiming a round: the next worker runs the round once the claim runs out", () =>
    Effect.gen(function*() {
      const sim = yield* Sim
      const databaseUrl = yield* DatabaseUrl
      const scope = yield* seedScope(1, { rentalAllowed: false })
      const w = scope.wallets[0]!
      yield* sim.chain.activate(w.address, 1_000_000n)
      yield* sim.chain.mintUsdt(w.address, usdt(50n))
      yield* sim.chain.mine(1)
      yield* sim.chain.delegateEnergy(w.address, 200_000n)
      yield* sim.chain.mine(25)
      const state = yield* sim.chain.state
      const start = state.blocks[state.blocks.length - 1]!.number
      yield* Effect.flatMap(SqlClient.SqlClient, (sql) =>
        Effect.all([
          sql`UPDATE wallets SET balance_usdt = ${usdt(50n).toString()}, balance_trx = 0, balance_block = 1 WHERE id = ${w.walletId}`,
          sql`UPDATE tenant_settings SET automation_enabled = true, automation_threshold = 10000000, automation_interval_minutes = 5,
              automation_updated_at = now()
              WHERE tenant_id = ${scope.tenantId} AND network = 'nile'`
        ])).pipe(Effect.orDie)

      const first = startTs("apps/worker/src/main.ts", workerEnv(databaseUrl, sim.url, start, "automation:claimed"))
      yield* exited(first)
      expect(first.signalCode).toBe("SIGKILL")
      const lost = yield* roundOf(scope.tenantId)
      // Killed between the claim and the round: claimed, not marked run, no task.
      expect(lost).toMatchObject({ last_run: null, tasks: [] })
      expect(lost.claimed_until).not.toBeNull()

      const restartedAt = Date.now()
      const second = startTs("apps/worker/src/main.ts", workerEnv(databaseUrl, sim.url, start))
      yield* Effect.addFinalizer(() => Effect.sync(() => second.kill("SIGKILL")))
      const done = yield* eventually(roundOf(scope.tenantId), (r) => r.last_run !== null)
      expect(done.tasks).toEqual([{ wallet_id: w.walletId, origin: "automation" }])
      expect(done.claimed_until).toBeNull()
      // The round ran about when the claim ran out, not after the scope's 5-minute interval.
      expect(Date.now() - restartedAt).toBeLessThan(120_000)
    }))
})
