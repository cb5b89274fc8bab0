import { wallet } from "@collector/tron-sim/testing"
import { SqlClient } from "@effect/sql"
import { expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { pass, ScanWorld, seedTenant, Sim } from "./testing/ScanHarness.js"
import { seededRandom } from "./testing/SeededRandom.js"

// Replay one scenario with SCAN_PROPERTY_SEED=<seed>.
const seeds = process.env.SCAN_PROPERTY_SEED ? [Number(process.env.SCAN_PROPERTY_SEED)] : [11, 29, 47, 131]

interface StoredDeposit {
  readonly id: string
  readonly txid: string
  readonly status: string
  readonly revision: number
  readonly amount: string
  readonly wallet_id: string
}

layer(ScanWorld, { excludeTestServices: true, timeout: 120_000 })("scanner under random transfers and reorganisations", (it) => {
  for (const seed of seeds) {
    it.effect(`seed ${seed}: stored deposits equal the canonical chain's transfers to tenant wallets`, () =>
      Effect.gen(function*() {
        const sim = yield* Sim
        const sql = yield* SqlClient.SqlClient
        const random = seededRandom(seed)
        const fast = yield* seedTenant("block_1", 3)
        const slow = yield* seedTenant("block_6", 2)
        const wallets = [...fast, ...slow]
        const sent = new Map<string, { readonly walletId: string; readonly amount: bigint }>()
        let minedSinceStart = 0
        for (let step = 0; step < 40; step++) {
          const roll = random.next()
          if (roll < 0.45) {
            const to = random.pick(wallets)
            const amount = BigInt(random.int(1, 5_000_000))
            sent.set(yield* sim.chain.mintUsdt(to.address, amount), { walletId: to.walletId, amount })
            if (random.next() < 0.2) yield* sim.chain.mintUsdt(wallet(7000 + step).address, 1n)
          } else if (roll < 0.75) {
            const blocks = random.int(1, 3)
            yield* sim.chain.mine(blocks)
            minedSinceStart += blocks
            if (random.next() < 0.6) yield* pass()
          } else if (roll < 0.87 && minedSinceStart > 6) {
            const recent = [...sent.keys()].slice(-4)
            const exclude = recent.filter(() => random.next() < 0.4)
            yield* sim.chain.reorg(random.int(1, 5), exclude)
          } else {
            yield* pass()
          }
        }
        // Let everything become final, then look.
        yield* sim.chain.mine(25)
        yield* pass()
        yield* pass()

        const state = yield* sim.chain.state
        const canonical = new Set(state.blocks.flatMap((b) => b.transactions.map((t) => t.tx.txid)))
        const walletIds = wallets.map((w) => w.walletId)
        const stored = yield* sql<StoredDeposit>`
          SELECT id::text, txid, status, revision, amount::text, wallet_id::text FROM deposits
          WHERE wallet_id IN ${sql.in(walletIds)} ORDER BY txid`
        const confirmed = stored.filter((d) => d.status === "confirmed")
        const expected = [...sent].filter(([txid]) => canonical.has(txid)).map(([txid, s]) => ({ txid, ...s })).sort((a, b) =>
          a.txid.localeCompare(b.txid)
        )
        expect(confirmed.map((d) => ({ txid: d.txid, walletId: d.wallet_id, amount: BigInt(d.amount) }))).toEqual(expected)
        // Whatever is not on the canonical chain was undone; a status is always the parity of its revision.
        for (const d of stored) {
          expect(d.status).toBe(canonical.has(d.txid) ? "confirmed" : "reverted")
          expect(d.revision % 2 === 1 ? "confirmed" : "reverted").toBe(d.status)
        }
        // The scenario must have exercised what it is about: some confirmation was undone.
        expect(stored.some((d) => d.revision > 1)).toBe(true)
        // One event per revision, in order, each carrying its own revision and status.
        const events = yield* sql<{ deposit_id: string; revision: number; event_type: string; payload: string }>`
          SELECT deposit_id::text, revision, event_type, payload FROM events
          WHERE deposit_id IN ${sql.in(stored.length === 0 ? ["0"] : stored.map((d) => d.id))} ORDER BY events.id`
        for (const d of stored) {
          const own = events.filter((e) => e.deposit_id === d.id)
          expect(own.map((e) => e.revision)).toEqual(Array.from({ length: d.revision }, (_, i) => i + 1))
          for (const e of own) {
            const payload = JSON.parse(e.payload)
            expect(payload).toMatchObject({ id: d.id, revision: e.revision, event_type: e.event_type })
            expect(e.event_type).toBe(e.revision % 2 === 1 ? "deposit.confirmed" : "deposit.reverted")
          }
        }
        const totals = yield* sql<{ tenant_id: string; confirmed_usdt: string }>`
          SELECT tenant_id::text, confirmed_usdt::text FROM deposit_totals WHERE tenant_id IN ${sql.in([fast[0]!.tenantId, slow[0]!.tenantId])}`
        for (const tenant of [fast, slow]) {
          const ids = new Set(tenant.map((w) => w.walletId))
          const sum = expected.filter((e) => ids.has(e.walletId)).reduce((total, e) => total + e.amount, 0n)
          const row = totals.find((t) => t.tenant_id === tenant[0]!.tenantId)
          expect(BigInt(row?.confirmed_usdt ?? "0")).toBe(sum)
        }
      }), 120_000)
  }
})
