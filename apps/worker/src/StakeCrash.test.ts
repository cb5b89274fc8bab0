import { PgSweepRepository } from "@collector/postgres"
import { sentBy, wallet } from "@collector/tron-sim/testing"
import { expect, layer } from "@effect/vitest"
import { Effect, Fiber, Layer } from "effect"
import { eventually } from "../../../test-support/Eventually.js"
import { startTs } from "../../../test-support/Processes.js"
import { crashWorkerEnv, headOf, killed, killedAtEach, mining, sweepCheckpoints } from "./testing/CrashRuns.js"
import { DatabaseUrl, processWorld } from "./testing/ProcessWorld.js"
import { createTask, seedResourceAccount, seedScope, sentFrom, Sim } from "./testing/SweepHarness.js"
import { taskAndDelegations } from "./testing/TaskDelegationRows.js"

/** The operator's resource account: 20,000 TRX staked for energy, 5 TRX beside it for its transactions' bandwidth. */
const stakeAccount = wallet(7301)
const world = Layer.provideMerge(
  PgSweepRepository.layer,
  processWorld({ genesisAccounts: [{ address: stakeAccount.address, trx: 5_000_000n, stakedForEnergy: 20_000_000_000n }] })
)

const workerEnv = (databaseUrl: string, nodeUrl: string, startBlock: bigint, crashAt?: string) => ({
  ...crashWorkerEnv(databaseUrl, nodeUrl, startBlock, crashAt),
  RECLAIM_INTERVAL_MS: "200"
})

/** The stake still lent out, as the chain's own account reply says (SUN). */
const lentOnChain = (simUrl: string) =>
  Effect.promise(() =>
    fetch(`${simUrl}/wallet/getaccount`, { method: "POST", body: JSON.stringify({ address: stakeAccount.address, visible: true }) })
      .then((r) => r.json() as Promise<{ account_resource?: { delegated_frozenV2_balance_for_energy?: number } }>)
  ).pipe(Effect.map((account) => BigInt(account.account_resource?.delegated_frozenV2_balance_for_energy ?? 0)))

// Every checkpoint a sweep on lent energy passes: lending (stage renting), waiting for the energy,
// signing, sending, settling. Killed before it records that it waits, the worker after it finds the
// lent energy on the wallet already and goes to ready at once, so `after:pending/waiting_energy`
// cannot come next.
const crashPoints = sweepCheckpoints.filter((point) => point !== "after:pending/waiting_energy")

layer(world, { excludeTestServices: true, timeout: 600_000 })("sweeper processes on the own stake", (it) => {
  it.effect("a worker killed at every state transition and restarted: one lending, taken back once, one transaction", () =>
    Effect.gen(function*() {
      const sim = yield* Sim
      const databaseUrl = yield* DatabaseUrl
      // The tenant may neither rent nor burn (the wallet holds one SUN): only the stake can pay.
      const scope = yield* seedScope(1, { rentalAllowed: false })
      yield* seedResourceAccount(scope, stakeAccount)
      const w = scope.wallets[0]!
      yield* sim.chain.activate(w.address, 1n).pipe(Effect.orDie)
      yield* sim.chain.mintUsdt(w.address, 40_000_000n).pipe(Effect.orDie)
      yield* sim.chain.mine(25)
      const miner = yield* Effect.fork(mining)
      const task = yield* createTask(scope, w)
      const start = yield* headOf
      const ends = yield* killedAtEach(crashPoints, (point) => workerEnv(databaseUrl, sim.url, start, point), taskAndDelegations(task.id))
      expect(ends).toEqual(crashPoints.map((point) => ({ point, signal: "SIGKILL" })))
      const last = startTs("apps/worker/src/main.ts", workerEnv(databaseUrl, sim.url, start))
      const done = yield* eventually(taskAndDelegations(task.id), (r) => r.task.status === "succeeded" && r.delegations[0]?.state === "reclaimed", 60_000)
      // Give the worker a moment to do anything wrong once all is done.
      yield* Effect.sleep("2 seconds")
      yield* killed(last, "SIGTERM")
      yield* Fiber.interrupt(miner)
      expect(done.task.energy_path).toBe("delegated")
      expect(yield* sentFrom(w.address)).toEqual([done.task.txid])
      // On chain the account sent exactly one lending and one reclaim, the two the ledger recorded, and lends nothing now.
      expect(done.delegations).toHaveLength(1)
      const sentByAccount = yield* sentBy(sim.chain, stakeAccount.address)
      expect([...sentByAccount].sort()).toEqual([done.delegations[0]!.delegate_txid, done.delegations[0]!.reclaim_txid].sort())
      expect(yield* lentOnChain(sim.url)).toBe(0n)
    }).pipe(Effect.scoped), 600_000)
})
