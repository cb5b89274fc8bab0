import { Pkcs11Token, Pkcs11WalletKeys, resourceAccountLabel } from "@collector/pkcs11"
import { createTestToken, skipReason, softHsmInstalled, softHsmModule } from "@collector/pkcs11/testing"
import { PgSweepRepository } from "@collector/postgres"
import { sentBy } from "@collector/tron-sim/testing"
import { SqlClient } from "@effect/sql"
import { describe, expect, it as vitestIt, layer } from "@effect/vitest"
import { Effect, Fiber, Layer } from "effect"
import { randomUUID } from "node:crypto"
import { eventually } from "../../../test-support/Eventually.js"
import { startTs } from "../../../test-support/Processes.js"
import { crashWorkerEnv, headOf, killed, mining } from "./testing/CrashRuns.js"
import { DatabaseUrl, processWorld } from "./testing/ProcessWorld.js"
import { createTask, seedScope, sentFrom, Sim } from "./testing/SweepHarness.js"
import { taskAndDelegations } from "./testing/TaskDelegationRows.js"

/** A throw-away SoftHSM2 token; the worker finds it through SOFTHSM2_CONF, inherited from this process. */
const token = softHsmInstalled ? createTestToken(undefined, 2) : undefined
const prefix = `stake-${randomUUID().slice(0, 8)}-`
const label = resourceAccountLabel(prefix, "nile", null)

// The network's resource account, its key made in the token as `resource-account create --store
// pkcs11` makes it: made before the chain starts, whose genesis gives the address its stake.
const account = token === undefined
  ? undefined
  : await Effect.runPromise(Effect.scoped(Effect.flatMap(Effect.orDie(Pkcs11Token.open(token.settings)), (opened) =>
    Effect.orDie(Pkcs11WalletKeys.generateLabelled(opened, label)))))

if (token === undefined || account === undefined) {
  describe("worker lending from a resource account whose key is in a PKCS#11 token", () => vitestIt.skip(skipReason, () => expect(softHsmInstalled).toBe(false)))
} else {
  const world = Layer.provideMerge(
    PgSweepRepository.layer,
    processWorld({ genesisAccounts: [{ address: account.address, trx: 5_000_000n, stakedForEnergy: 20_000_000_000n }] })
  )
  layer(world, { excludeTestServices: true, timeout: 300_000 })("worker lending from a resource account whose key is in a PKCS#11 token", (it) => {
    it.effect("the worker (KEY_STORE=pkcs11) lends the stake and takes it back, both signed inside the token", () =>
      Effect.gen(function*() {
        const sim = yield* Sim
        const sql = yield* SqlClient.SqlClient
        const databaseUrl = yield* DatabaseUrl
        // The tenant may neither rent nor burn (the wallet holds one SUN): only the stake can pay.
        const scope = yield* seedScope(1, { rentalAllowed: false })
        yield* sql`
          INSERT INTO resource_accounts (network, tenant_id, address, store, key_label, created_at)
          VALUES ('nile', NULL, ${account.address}, 'pkcs11', ${label}, now())`.pipe(Effect.orDie)
        const w = scope.wallets[0]!
        yield* sim.chain.activate(w.address, 1n).pipe(Effect.orDie)
        yield* sim.chain.mintUsdt(w.address, 40_000_000n).pipe(Effect.orDie)
        yield* sim.chain.mine(25)
        const miner = yield* Effect.fork(mining)
        const task = yield* createTask(scope, w)
        const env = {
          ...crashWorkerEnv(databaseUrl, sim.url, yield* headOf),
          RECLAIM_INTERVAL_MS: "200",
          KEY_STORE: "pkcs11",
          PKCS11_MODULE: softHsmModule,
          PKCS11_TOKEN_LABEL: token.label,
          PKCS11_PIN: token.pin,
          PKCS11_SESSIONS: "2",
          PKCS11_LABEL_PREFIX: prefix
        }
        const worker = startTs("apps/worker/src/main.ts", env)
        const done = yield* eventually(taskAndDelegations(task.id), (r) => r.task.status === "succeeded" && r.delegations[0]?.state === "reclaimed", 120_000)
        yield* killed(worker, "SIGTERM")
        yield* Fiber.interrupt(miner)
        expect(done.task.energy_path).toBe("delegated")
        expect(yield* sentFrom(w.address)).toEqual([done.task.txid])
        // The node accepted both only as signed by the account's key, which exists nowhere but in the token.
        expect(done.delegations).toHaveLength(1)
        expect([...(yield* sentBy(sim.chain, account.address))].sort()).toEqual([done.delegations[0]!.delegate_txid, done.delegations[0]!.reclaim_txid].sort())
      }).pipe(Effect.scoped), 300_000)
  })
}
