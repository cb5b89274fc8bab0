import { Chain, Deposits, Engine } from "@collector/core"
import { signWith } from "@collector/tron-sim/testing"
import { wallet } from "@collector/tron-sim/testing"
import { SqlClient } from "@effect/sql"
import { expect, layer } from "@effect/vitest"
import { Effect, Option } from "effect"
import { testEngineSettings } from "./testing/EngineWorld.js"
import { depositsOf, eventsOf, pass, ScanWorld, seedTenant, Sim } from "./testing/ScanHarness.js"

const usdt = (whole: bigint) => whole * 1_000_000n

layer(ScanWorld, { excludeTestServices: true, timeout: 120_000 })("scanner against the simulated node", (it) => {
  it.effect("block_1: a transfer is a deposit once its block is stored, with every field and one event", () =>
    Effect.gen(function*() {
      const sim = yield* Sim
      const [w] = yield* seedTenant("block_1")
      yield* pass()
      const txid = yield* sim.chain.mintUsdt(w!.address, usdt(5n))
      const [block] = yield* sim.chain.mine(1)
      yield* pass()
      const deposits = yield* depositsOf(w!.tenantId)
      expect(deposits).toEqual([
        expect.objectContaining({
          status: "confirmed",
          revision: 1,
          wallet_id: w!.walletId,
          txid,
          log_index: 0,
          amount: "5000000",
          block_number: block!.number.toString(),
          block_hash: block!.blockId,
          confirmation_type: "block_1",
          confirmations: 1
        })
      ])
      const events = yield* eventsOf(w!.tenantId)
      expect(events).toHaveLength(1)
      expect(events[0]).toMatchObject({ id: deposits[0]!.event_id, event_type: "deposit.confirmed", revision: 1, status: "pending" })
      const payload = JSON.parse(events[0]!.payload)
      expect(Object.keys(payload)).toHaveLength(24)
      expect(payload).toMatchObject({
        id: deposits[0]!.id,
        event_id: events[0]!.id,
        custom_id: w!.customId,
        address: w!.address,
        source: "T9yD14Nj9j7xAB4dbGeiX9h8unkKHxuWwb",
        contract: "TXYZopYRdj2D9XRtbG411XZZ3kM5VkAeBf",
        chain: "TRON",
        asset: "USDT",
        token_standard: "TRC20",
        decimals: 6,
        network: "nile"
      })
      expect(payload.block_time).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/)
      expect(payload.created_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/)
    }))

  for (const [rule, needed] of [["block_3", 3], ["block_6", 6], ["block_12", 12]] as const) {
    it.effect(`${rule}: not a deposit at ${needed - 1} confirmations, a deposit at ${needed}`, () =>
      Effect.gen(function*() {
        const sim = yield* Sim
        const [w] = yield* seedTenant(rule)
        yield* sim.chain.mintUsdt(w!.address, usdt(1n))
        yield* sim.chain.mine(needed - 1)
        yield* pass()
        expect(yield* depositsOf(w!.tenantId)).toEqual([])
        yield* sim.chain.mine(1)
        yield* pass()
        expect(yield* depositsOf(w!.tenantId)).toEqual([expect.objectContaining({ confirmation_type: rule, confirmations: needed })])
      }))
  }

  it.effect("solidified: a deposit only once its block is 19 below the head, with null confirmations", () =>
    Effect.gen(function*() {
      const sim = yield* Sim
      const [w] = yield* seedTenant("solidified")
      yield* sim.chain.mintUsdt(w!.address, usdt(2n))
      yield* sim.chain.mine(19)
      yield* pass()
      expect(yield* depositsOf(w!.tenantId)).toEqual([])
      yield* sim.chain.mine(1)
      yield* pass()
      expect(yield* depositsOf(w!.tenantId)).toEqual([
        expect.objectContaining({ confirmation_type: "solidified", confirmations: null, status: "confirmed" })
      ])
    }))

  it.effect("TRX transfers, transfers to strangers and a reverted USDT transfer are not deposits", () =>
    Effect.gen(function*() {
      const sim = yield* Sim
      const chain = yield* Chain.Chain
      const [w, other] = yield* seedTenant("block_1", 2)
      yield* sim.chain.transferTrx({ to: w!.address, amount: 50_000_000n })
      yield* sim.chain.mintUsdt(wallet(9).address, usdt(3n))
      yield* sim.chain.mine(1)
      // More than the wallet holds: included in a block, receipt REVERT, no Transfer log.
      const unsigned = yield* chain.buildUsdtTransfer({ from: w!.address, to: other!.address, amount: usdt(1n), feeLimit: 30_000_000n })
      expect(yield* chain.broadcast(signWith(unsigned, wallet(w!.index)))).toEqual({ _tag: "Accepted" })
      // Chain.receipt reads the solidity node: mine until the block is 19 below the head.
      yield* sim.chain.mine(20)
      const receipt = yield* chain.receipt(unsigned.txid)
      yield* pass()
      expect(yield* depositsOf(w!.tenantId)).toEqual([])
      expect(Option.getOrThrow(receipt)).toMatchObject({ txid: unsigned.txid, result: "REVERT" })
    }))

  it.effect("a reorganisation that drops the transfer reverts the deposit: revision 2, a new event", () =>
    Effect.gen(function*() {
      const sim = yield* Sim
      const [w] = yield* seedTenant("block_1")
      const txid = yield* sim.chain.mintUsdt(w!.address, usdt(7n))
      yield* sim.chain.mine(1)
      yield* pass()
      const [confirmed] = yield* depositsOf(w!.tenantId)
      yield* sim.chain.reorg(1, [txid])
      yield* pass()
      const [reverted] = yield* depositsOf(w!.tenantId)
      expect(reverted).toMatchObject({ id: confirmed!.id, status: "reverted", revision: 2, block_hash: confirmed!.block_hash })
      expect(reverted!.event_id).not.toBe(confirmed!.event_id)
      const events = yield* eventsOf(w!.tenantId)
      expect(events.map((e) => [e.event_type, e.revision])).toEqual([["deposit.confirmed", 1], ["deposit.reverted", 2]])
      expect(JSON.parse(events[1]!.payload)).toMatchObject({ status: "reverted", event_type: "deposit.reverted", revision: 2, id: confirmed!.id })
      const sql = yield* SqlClient.SqlClient
      const [total] = yield* sql<{ confirmed_usdt: string }>`SELECT confirmed_usdt::text FROM deposit_totals WHERE tenant_id = ${w!.tenantId}`
      expect(total!.confirmed_usdt).toBe("0")
    }))

  it.effect("a reorganisation that moves the transfer to another block confirms it again under the same ID", () =>
    Effect.gen(function*() {
      const sim = yield* Sim
      const [w] = yield* seedTenant("block_1")
      yield* sim.chain.mintUsdt(w!.address, usdt(4n))
      yield* sim.chain.mine(1)
      yield* pass()
      const [first] = yield* depositsOf(w!.tenantId)
      yield* sim.chain.reorg(1)
      yield* pass()
      const [again] = yield* depositsOf(w!.tenantId)
      expect(again).toMatchObject({ id: first!.id, status: "confirmed", revision: 3, txid: first!.txid })
      expect(again!.block_hash).not.toBe(first!.block_hash)
      const events = yield* eventsOf(w!.tenantId)
      expect(events.map((e) => [e.event_type, e.revision])).toEqual([
        ["deposit.confirmed", 1],
        ["deposit.reverted", 2],
        ["deposit.confirmed", 3]
      ])
      const last = JSON.parse(events[2]!.payload)
      expect(last).toMatchObject({ id: first!.id, block_hash: again!.block_hash, block_number: again!.block_number })
    }))

  it.effect("the stored payload equals the record built from the stored deposit (one object, one revision)", () =>
    Effect.gen(function*() {
      const sim = yield* Sim
      const [w] = yield* seedTenant("block_1")
      yield* sim.chain.mintUsdt(w!.address, usdt(9n))
      yield* sim.chain.mine(1)
      yield* pass()
      const sql = yield* SqlClient.SqlClient
      const [row] = yield* sql<{ payload: string }>`SELECT payload FROM events WHERE tenant_id = ${w!.tenantId}`
      const parsed = JSON.parse(row!.payload)
      expect(JSON.stringify(Deposits.depositRecord({
        id: parsed.id,
        eventId: parsed.event_id,
        tenantId: w!.tenantId as never,
        network: "nile",
        status: "confirmed",
        walletId: parsed.wallet_id,
        customId: parsed.custom_id,
        address: parsed.address,
        source: parsed.source,
        contract: parsed.contract,
        amount: BigInt(parsed.amount),
        txid: parsed.txid,
        logIndex: parsed.log_index,
        blockNumber: BigInt(parsed.block_number),
        blockHash: parsed.block_hash,
        blockTime: new Date(parsed.block_time),
        createdAt: new Date(parsed.created_at),
        revision: parsed.revision,
        confirmationType: parsed.confirmation_type,
        confirmations: parsed.confirmations
      }))).toBe(row!.payload)
    }))

  it.effect("integrity: a wallet that existed unseen gets its earlier transfer booked once; a booked one is never booked again", () =>
    Effect.gen(function*() {
      const sim = yield* Sim
      const sql = yield* SqlClient.SqlClient
      const [known] = yield* seedTenant("block_1")
      const late = wallet(9100)
      yield* sim.chain.mintUsdt(late.address, usdt(6n))
      yield* sim.chain.mintUsdt(known!.address, usdt(1n))
      yield* sim.chain.mine(1)
      yield* pass()
      // The address becomes a tenant wallet only now (a restore, an import): the scanner passed its block.
      yield* sql`INSERT INTO wallets (tenant_id, network, address, custom_id) VALUES (${known!.tenantId}, 'nile', ${late.address}, 'late')`
      yield* sql`DELETE FROM observed_logs WHERE wallet_id = ${known!.walletId}`
      // A worker that starts now re-checks the recent blocks in its first pass: here two of them.
      const firstPassOfNewWorker = Effect.provide(pass(), Engine.Engine.layer("nile", testEngineSettings))
      yield* firstPassOfNewWorker
      yield* firstPassOfNewWorker
      const deposits = yield* depositsOf(known!.tenantId)
      expect(deposits.map((d) => [d.amount, d.revision, d.status]).sort()).toEqual([["1000000", 1, "confirmed"], ["6000000", 1, "confirmed"]])
      expect(yield* eventsOf(known!.tenantId)).toHaveLength(2)
    }))

  it.effect("several Transfer logs in one transaction are separate deposits by log index; another token's transfers are ignored", () =>
    Effect.gen(function*() {
      const sim = yield* Sim
      const [a, b] = yield* seedTenant("block_1", 2)
      const txid = yield* sim.chain.batchTransferUsdt({
        transfers: [
          { to: a!.address, amount: usdt(1n) },
          { to: wallet(9200).address, amount: usdt(2n) },
          { to: b!.address, amount: usdt(3n) },
          { to: a!.address, amount: usdt(4n) }
        ]
      })
      const other = yield* sim.chain.transferOtherToken({ to: a!.address, amount: usdt(50n) })
      yield* sim.chain.mine(1)
      yield* pass()
      const deposits = yield* depositsOf(a!.tenantId)
      expect(deposits.map((d) => [d.txid, d.log_index, d.wallet_id, d.amount]).sort()).toEqual([
        [txid, 0, a!.walletId, "1000000"],
        [txid, 2, b!.walletId, "3000000"],
        [txid, 3, a!.walletId, "4000000"]
      ])
      expect(deposits.some((d) => d.txid === other)).toBe(false)
      expect(new Set(deposits.map((d) => d.id)).size).toBe(3)
    }))
})
