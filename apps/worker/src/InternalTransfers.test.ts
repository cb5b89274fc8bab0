import { type EnergyProviderSettings, SimEnergyProvider } from "@collector/energy"
import { SqlClient } from "@effect/sql"
import { expect, layer } from "@effect/vitest"
import { Duration, Effect } from "effect"
import { depositsOf, eventsOf, pass as scanPass } from "./testing/ScanHarness.js"
import { createTask, pass as sweepPass, runUntilDone, seedScope, sentFrom, Sim, type SweepScope, type SweepWallet, sweepWorld, taskOf } from "./testing/SweepHarness.js"

const usdt = (whole: bigint) => whole * 1_000_000n

const simProvider = (url: string): EnergyProviderSettings => ({
  kind: "sim",
  network: "nile",
  config: SimEnergyProvider.defaultSimProviderConfig(url, { requestTimeout: Duration.seconds(2) })
})

/** The real engine (sweeper and scanner) over one simulated node and one fresh database. */
const world = sweepWorld(simProvider)

/** The tenant's collection address becomes its own wallet `collector`, booked on `block_1`. */
const collectInto = (scope: SweepScope, collector: SweepWallet) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) =>
    Effect.all([
      sql`UPDATE tenant_settings SET collection_address = ${collector.address}, collection_wallet_id = ${collector.walletId}
          WHERE tenant_id = ${scope.tenantId} AND network = ${scope.network}`,
      sql`UPDATE apps SET confirmation_rule = 'block_1' WHERE tenant_id = ${scope.tenantId}`
    ])).pipe(Effect.orDie, Effect.as({ ...scope, destination: collector.address }))

const funded = (w: SweepWallet, amount: bigint) =>
  Effect.gen(function*() {
    const sim = yield* Sim
    yield* sim.chain.activate(w.address, 1n)
    yield* sim.chain.mintUsdt(w.address, amount)
    yield* sim.chain.mine(25)
  })

const confirmedUsdt = (tenantId: string) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) =>
    sql<{ confirmed_usdt: string }>`SELECT confirmed_usdt::text FROM deposit_totals WHERE tenant_id = ${tenantId}`).pipe(
    Effect.orDie,
    Effect.map((rows) => rows[0]?.confirmed_usdt ?? "0")
  )

/** The block from which the wallet's balance must be read again (balance sync's mark), if marked. */
const staleFrom = (w: SweepWallet) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) =>
    sql<{ stale: string | null }>`SELECT balance_stale_from::text AS stale FROM wallets WHERE id = ${w.walletId}`).pipe(
    Effect.orDie,
    Effect.map((rows) => rows[0]!.stale)
  )

const booked = (tenantId: string) =>
  Effect.map(depositsOf(tenantId), (rows) => rows.map((d) => [d.wallet_id, d.amount, d.status, d.revision]))

layer(world, { excludeTestServices: true, timeout: 180_000 })("our own sweeps into a tenant's collection wallet", (it) => {
  it.effect("are no deposits, also when a reorganisation lands the sweep again; anyone else's transfer into that wallet is", () =>
    Effect.gen(function*() {
      const sim = yield* Sim
      const scope = yield* Effect.flatMap(seedScope(2), (s) => collectInto(s, s.wallets[1]!))
      const [source, collector] = scope.wallets as [SweepWallet, SweepWallet]
      yield* scanPass()
      yield* funded(source, usdt(7n))
      const task = yield* createTask(scope, source)

      // Sweep passes until the transfer is in a block, then the scanner sees that block.
      for (let i = 0; i < 60 && (yield* sentFrom(source.address)).length === 0; i++) {
        yield* sweepPass()
        yield* sim.chain.mine(1)
      }
      const [txid] = yield* sentFrom(source.address)
      expect(txid).toBeDefined()
      expect(yield* staleFrom(collector)).toBeNull()
      yield* scanPass()
      const [deposit] = yield* depositsOf(scope.tenantId)
      expect(yield* booked(scope.tenantId)).toEqual([[source.walletId, "7000000", "confirmed", 1]])
      // No deposit, but the collection wallet's balance moved: balance sync reads it again first.
      const sweptAt = (yield* Effect.map(sim.chain.state, (s) => s.blocks.find((b) => b.transactions.some((t) => t.tx.txid === txid))))!.number
      expect(yield* staleFrom(collector)).toBe(sweptAt.toString())

      // The sweep's block is replaced; the same transaction lands again in the new chain.
      yield* sim.chain.reorg(1)
      expect(yield* sentFrom(source.address)).toEqual([txid])
      yield* scanPass()
      const { task: done } = yield* runUntilDone(scope, task.id)
      expect(done.status, done.reason).toBe("succeeded")
      yield* scanPass()
      expect(yield* booked(scope.tenantId)).toEqual([[source.walletId, "7000000", "confirmed", 1]])

      // Money from outside into the collection wallet is a deposit as any other.
      yield* sim.chain.mintUsdt(collector.address, usdt(2n))
      yield* sim.chain.mine(1)
      yield* scanPass()
      expect(yield* booked(scope.tenantId)).toEqual([
        [source.walletId, "7000000", "confirmed", 1],
        [collector.walletId, "2000000", "confirmed", 1]
      ])
      const events = yield* eventsOf(scope.tenantId)
      expect(events.filter((e) => e.event_type.startsWith("deposit.")).map((e) => e.deposit_id)).toEqual([deposit!.id, expect.any(String)])
      expect(yield* confirmedUsdt(scope.tenantId)).toBe("9000000")
      expect((yield* taskOf(scope, task.id)).transaction?.txid).toBe(txid)
    }))

  it.effect("another tenant's sweep into the wallet is money from outside: a deposit", () =>
    Effect.gen(function*() {
      const receiving = yield* Effect.flatMap(seedScope(1), (s) => collectInto(s, s.wallets[0]!))
      const collector = receiving.wallets[0]!
      // Tenant B collects into A's wallet: to B it is an external address.
      const paying = yield* seedScope(1)
      const payer = paying.wallets[0]!
      yield* scanPass()
      yield* funded(payer, usdt(3n))
      const task = yield* createTask({ ...paying, destination: collector.address }, payer)
      const { task: done } = yield* runUntilDone(paying, task.id)
      expect(done.status, done.reason).toBe("succeeded")
      yield* scanPass()
      expect(yield* booked(receiving.tenantId)).toEqual([[collector.walletId, "3000000", "confirmed", 1]])
      expect(yield* booked(paying.tenantId)).toEqual([[payer.walletId, "3000000", "confirmed", 1]])
    }))
})
