import { Trc20Call } from "@collector/tron"
import { describe, expect, it } from "@effect/vitest"
import { Clock, Effect, Either } from "effect"
import { otherTokenContract, otherTokenHex, usdtHex } from "./SimConfig.js"
import { pendingWorld } from "./Broadcast.js"
import { fromRawData } from "./SimTransaction.js"
import { batchData, batchTransferSelector } from "./TokenBatch.js"
import { buildTrigger } from "./TransactionBuilder.js"
import { mintAlongsideSelector, parseCall, runCall } from "./UsdtContract.js"
import { accountOf, infoOf, otherTokenOf, testChain, usdtOf } from "./testing/SimTestChain.js"
import { signAndBroadcast, wallet } from "./testing/SimWallet.js"

const alice = wallet(1)
const bob = wallet(2)
const carol = wallet(3)
const trx = (n: bigint) => n * 1_000_000n
const usdtContractHex20 = "eca9bc828a3005b9a3b909f2cc5c2a54794de05f"
const word = (hex21: string) => hex21.slice(2).padStart(64, "0")
const amountWord = (n: bigint) => n.toString(16).padStart(64, "0")
const zero = "00".repeat(32)

describe("SimChain: several Transfer logs in one transaction, another token", () => {
  it.effect("the issuer's batch mint is one transaction with one USDT Transfer log per item, in item order", () =>
    Effect.gen(function*() {
      const chain = yield* testChain()
      const txid = yield* chain.batchTransferUsdt({
        transfers: [{ to: alice.address, amount: 1_000_000n }, { to: bob.hex, amount: 2_500_000n }, { to: alice.address, amount: 3n }]
      })
      const [block] = yield* chain.mine()
      expect(block!.transactions.map((t) => t.tx.txid)).toEqual([txid])
      const info = yield* infoOf(chain, txid)
      expect(info.contractRet).toBe("SUCCESS")
      expect(info.receipt.result).toBe("SUCCESS")
      expect(info.logs).toEqual([
        { address: usdtContractHex20, topics: [Trc20Call.transferTopic, zero, word(alice.hex)], data: amountWord(1_000_000n) },
        { address: usdtContractHex20, topics: [Trc20Call.transferTopic, zero, word(bob.hex)], data: amountWord(2_500_000n) },
        { address: usdtContractHex20, topics: [Trc20Call.transferTopic, zero, word(alice.hex)], data: amountWord(3n) }
      ])
      // Two fresh slots, then one overwritten: 130,285 + 130,285 + 64,285.
      expect(info.receipt.energyUsageTotal).toBe(324_855n)
      expect(yield* usdtOf(chain, alice.hex)).toBe(1_000_003n)
      expect(yield* usdtOf(chain, bob.hex)).toBe(2_500_000n)
      const state = yield* chain.state
      expect(block!.transactions[0]!.tx.raw.contract[0]!.parameter.value).toMatchObject({
        owner_address: state.issuer.hex,
        contract_address: usdtHex(state.config)
      })
    }))

  it.effect("a holder's batch transfer debits the sum and credits each recipient, logs from the holder", () =>
    Effect.gen(function*() {
      const chain = yield* testChain({ genesisAccounts: [{ address: alice.address, usdt: 1_000_000n }, { address: bob.address, usdt: 5n }] })
      const txid = yield* chain.batchTransferUsdt({
        from: alice.address,
        transfers: [{ to: carol.address, amount: 400_000n }, { to: bob.address, amount: 100_000n }]
      })
      yield* chain.mine()
      const info = yield* infoOf(chain, txid)
      expect(info.contractRet).toBe("SUCCESS")
      expect(info.logs.map((log) => [log.topics[1], log.topics[2], log.data])).toEqual([
        [word(alice.hex), word(carol.hex), amountWord(400_000n)],
        [word(alice.hex), word(bob.hex), amountWord(100_000n)]
      ])
      expect(info.contractResult).toEqual([zero])
      // A transfer to an empty address, then one to a holder, penalties included.
      expect(info.receipt.energyUsageTotal).toBe(130_285n + 64_285n)
      expect(info.receipt.energyPenaltyTotal).toBe(100_635n + 49_635n)
      expect([yield* usdtOf(chain, alice.hex), yield* usdtOf(chain, carol.hex), yield* usdtOf(chain, bob.hex)]).toEqual([500_000n, 400_000n, 100_005n])
    }))

  it.effect("a transfer, a mint and a batch item of 0 USDT succeed with a Transfer log of value 0, as the real contract's do", () =>
    Effect.gen(function*() {
      const chain = yield* testChain({ genesisAccounts: [{ address: alice.address, trx: trx(100n), usdt: 0n }] })
      const sent = yield* chain.transferUsdt({ from: alice.address, to: bob.address, amount: 0n })
      const minted = yield* chain.mintUsdt(carol.address, 0n)
      const batched = yield* chain.batchTransferUsdt({ transfers: [{ to: bob.address, amount: 0n }] })
      yield* chain.mine()
      const logsOf = (txid: string) => Effect.map(infoOf(chain, txid), (info) => [info.contractRet, info.logs])
      expect(yield* logsOf(sent)).toEqual(["SUCCESS", [{ address: usdtContractHex20, topics: [Trc20Call.transferTopic, word(alice.hex), word(bob.hex)], data: zero }]])
      expect(yield* logsOf(minted)).toEqual(["SUCCESS", [{ address: usdtContractHex20, topics: [Trc20Call.transferTopic, zero, word(carol.hex)], data: zero }]])
      expect(yield* logsOf(batched)).toEqual(["SUCCESS", [{ address: usdtContractHex20, topics: [Trc20Call.transferTopic, zero, word(bob.hex)], data: zero }]])
      expect([yield* usdtOf(chain, bob.hex), yield* usdtOf(chain, carol.hex)]).toEqual([0n, 0n])
    }))

  it.effect("Tether's freeze list: only the issuer lists and unlists; a listed holder's transfer and batch revert; others may still pay it", () =>
    Effect.gen(function*() {
      const chain = yield* testChain({ genesisAccounts: [{ address: alice.address, trx: trx(100n), usdt: 50n }, { address: bob.address, trx: trx(100n), usdt: 5n }] })
      yield* chain.setBlackListed(alice.address, true)
      yield* chain.mine()
      const blocked = yield* chain.transferUsdt({ from: alice.address, to: carol.address, amount: 1n })
      const blockedBatch = yield* chain.batchTransferUsdt({ from: alice.address, transfers: [{ to: carol.address, amount: 1n }] })
      const toFrozen = yield* chain.transferUsdt({ from: bob.address, to: alice.address, amount: 2n })
      yield* chain.mine()
      expect((yield* infoOf(chain, blocked)).receipt.result).toBe("REVERT")
      expect((yield* infoOf(chain, blockedBatch)).receipt.result).toBe("REVERT")
      expect((yield* infoOf(chain, toFrozen)).receipt.result).toBe("SUCCESS")
      expect(yield* usdtOf(chain, alice.hex)).toBe(52n)
      // Anyone but the issuer calling addBlackList reverts and lists nobody.
      const state = yield* chain.state
      const raw = Either.getOrThrow(buildTrigger(state, {
        owner: bob.hex,
        contract: usdtHex(state.config),
        data: Trc20Call.addBlackListSelector + word(carol.hex),
        callValue: 0n,
        feeLimit: trx(50n)
      }, yield* Clock.currentTimeMillis))
      const forged = yield* signAndBroadcast(chain, Either.getOrThrow(fromRawData(raw, [])), bob)
      yield* chain.setBlackListed(alice.address, false)
      yield* chain.mine()
      expect((yield* infoOf(chain, forged)).receipt.result).toBe("REVERT")
      const unfrozen = yield* chain.transferUsdt({ from: alice.address, to: carol.address, amount: 1n })
      yield* chain.mine()
      expect((yield* infoOf(chain, unfrozen)).receipt.result).toBe("SUCCESS")
    }))

  it.effect("refuses a batch the sender cannot pay and an empty one, leaving the pool as it was", () =>
    Effect.gen(function*() {
      const chain = yield* testChain({ genesisAccounts: [{ address: alice.address, usdt: 10n }] })
      const short = yield* chain.batchTransferUsdt({ from: alice.address, transfers: [{ to: bob.address, amount: 6n }, { to: carol.address, amount: 5n }] })
        .pipe(Effect.flip)
      expect(short.reason).toBe(`${alice.hex} holds 10 USDT units, cannot send 11`)
      expect((yield* chain.batchTransferUsdt({ transfers: [] }).pipe(Effect.flip)).reason).toBe("transfers must not be empty")
      expect((yield* chain.batchTransferUsdt({ transfers: [{ to: "Tnope", amount: 1n }] }).pipe(Effect.flip)).reason).toMatch(/not a TRON address/)
      expect((yield* chain.state).pending).toEqual([])
    }))

  it.effect("a signed batchTransfer broadcast by a user runs too, paying its energy", () =>
    Effect.gen(function*() {
      const chain = yield* testChain({ genesisAccounts: [{ address: alice.address, trx: trx(100n), usdt: 10n }] })
      const state = yield* chain.state
      const data = batchData(batchTransferSelector, [{ to: bob.hex, amount: 4n }, { to: carol.hex, amount: 6n }])
      const raw = Either.getOrThrow(
        buildTrigger(state, { owner: alice.hex, contract: usdtHex(state.config), data, callValue: 0n, feeLimit: trx(50n) }, yield* Clock.currentTimeMillis)
      )
      const txid = yield* signAndBroadcast(chain, Either.getOrThrow(fromRawData(raw, [])), alice)
      yield* chain.mine()
      const info = yield* infoOf(chain, txid)
      expect(info.contractRet).toBe("SUCCESS")
      expect(info.logs).toHaveLength(2)
      expect(info.receipt.energyFee).toBe(2n * 130_285n * 100n)
      expect((yield* accountOf(chain, alice)).balance).toBe(trx(100n) - info.fee)
      expect([yield* usdtOf(chain, alice.hex), yield* usdtOf(chain, bob.hex), yield* usdtOf(chain, carol.hex)]).toEqual([0n, 4n, 6n])
    }))

  it.effect("the other token lives at a fixed address, keeps its own balances and logs from its own address", () =>
    Effect.gen(function*() {
      const chain = yield* testChain({ seed: "another seed" })
      expect(chain.config.otherTokenContract).toBe("TTjZc785R2A88G71nSv9KYagYw5U7GL6cE")
      expect(otherTokenHex(chain.config)).toBe("41c2dda3e5461893f445a0f0bef17b80c37e302799")
      expect(otherTokenContract).not.toBe(chain.config.usdtContract)
      const minted = yield* chain.transferOtherToken({ to: alice.address, amount: 700n })
      yield* chain.mine()
      const sent = yield* chain.transferOtherToken({ from: alice.address, to: bob.address, amount: 200n })
      yield* chain.mine()
      const info = yield* infoOf(chain, sent)
      expect(info.contractRet).toBe("SUCCESS")
      expect(info.contractAddress).toBe(otherTokenHex(chain.config))
      expect(info.logs).toEqual([
        { address: "c2dda3e5461893f445a0f0bef17b80c37e302799", topics: [Trc20Call.transferTopic, word(alice.hex), word(bob.hex)], data: amountWord(200n) }
      ])
      expect((yield* infoOf(chain, minted)).logs[0]!.topics[1]).toBe(zero)
      expect([yield* otherTokenOf(chain, alice.hex), yield* otherTokenOf(chain, bob.hex)]).toEqual([500n, 200n])
      // None of it is USDT.
      expect([yield* usdtOf(chain, alice.hex), yield* usdtOf(chain, bob.hex)]).toEqual([0n, 0n])
      const short = yield* chain.transferOtherToken({ from: bob.address, to: alice.address, amount: 201n }).pipe(Effect.flip)
      expect(short.reason).toBe(`${bob.hex} holds 200 other-token units, cannot send 201`)
    }))

  it.effect("the issuer's mintAlongside is one transaction with Transfer logs of two contracts: the other token's, then USDT's", () =>
    Effect.gen(function*() {
      const chain = yield* testChain()
      const txid = yield* chain.mintUsdtAlongsideOther({ to: alice.address, amount: 2_000_000n, otherAmount: 7n })
      const [block] = yield* chain.mine()
      expect(block!.transactions.map((t) => t.tx.txid)).toEqual([txid])
      const info = yield* infoOf(chain, txid)
      expect(info.contractRet).toBe("SUCCESS")
      // Called on the USDT contract; the first log names the other token, the second USDT.
      expect(info.contractAddress).toBe("41" + usdtContractHex20)
      expect(info.logs).toEqual([
        { address: "c2dda3e5461893f445a0f0bef17b80c37e302799", topics: [Trc20Call.transferTopic, zero, word(alice.hex)], data: amountWord(7n) },
        { address: usdtContractHex20, topics: [Trc20Call.transferTopic, zero, word(alice.hex)], data: amountWord(2_000_000n) }
      ])
      // Two fresh slots, one in each contract.
      expect(info.receipt.energyUsageTotal).toBe(260_570n)
      expect([yield* usdtOf(chain, alice.hex), yield* otherTokenOf(chain, alice.hex)]).toEqual([2_000_000n, 7n])
      const negative = yield* chain.mintUsdtAlongsideOther({ to: alice.address, amount: -1n, otherAmount: 7n }).pipe(Effect.flip)
      expect(negative.reason).toBe("amount must not be negative, got -1")
    }))

  it.effect("only the issuer may mint alongside, and never with its own contract as the partner: both revert", () =>
    Effect.gen(function*() {
      const chain = yield* testChain({ genesisAccounts: [{ address: alice.address, trx: trx(1000n) }] })
      const state = yield* chain.state
      const call = (partner: string) =>
        mintAlongsideSelector + [partner, bob.hex].map((a) => a.slice(2).padStart(64, "0")).join("") + amountWord(5n) + amountWord(6n)
      const raw = Either.getOrThrow(buildTrigger(
        state,
        { owner: alice.hex, contract: usdtHex(state.config), data: call(otherTokenHex(state.config)), callValue: 0n, feeLimit: trx(50n) },
        yield* Clock.currentTimeMillis
      ))
      const byUser = yield* signAndBroadcast(chain, Either.getOrThrow(fromRawData(raw, [])), alice)
      yield* chain.mine()
      expect((yield* infoOf(chain, byUser)).contractRet).toBe("REVERT")
      expect(parseCall(call(usdtHex(state.config)))).toMatchObject({ kind: "mintAlongside", partner: usdtHex(state.config) })
      expect(runCall(pendingWorld(state, 0), usdtHex(state.config), state.issuer.hex, parseCall(call(usdtHex(state.config))), state.config.transferEnergy, state.issuer.hex).outcome)
        .toBe("REVERT")
      // A malformed argument list is no call at all.
      expect(parseCall(call(otherTokenHex(state.config)).slice(0, -2)).kind).toBe("unknown")
      expect([yield* usdtOf(chain, bob.hex), yield* otherTokenOf(chain, bob.hex)]).toEqual([0n, 0n])
    }))
})
