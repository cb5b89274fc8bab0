import { BlockHeader, TronAddress, TronSignature } from "@collector/tron"
import { describe, expect, it } from "@effect/vitest"
import { Effect, Either, Option, TestClock } from "effect"
import { headerRaw } from "./SimBlock.js"
import { head, solidified } from "./SimState.js"
import { infoOf, isIncluded, startTime, testChain } from "./testing/SimTestChain.js"
import { signAndBroadcast, usdtTransfer, wallet } from "./testing/SimWallet.js"

const sender = wallet(1)
const outsider = wallet(5)
const trx = (n: bigint) => n * 1_000_000n

describe("SimChain blocks", () => {
  it.effect("chains blocks 3 s apart by blockID and parentHash, signed by their witness", () =>
    Effect.gen(function*() {
      const chain = yield* testChain()
      const blocks = yield* chain.mine(3)
      const state = yield* chain.state
      expect(state.blocks.map((b) => b.number)).toEqual([1_000_000n, 1_000_001n, 1_000_002n, 1_000_003n])
      expect(state.blocks[0]!.timestamp).toBe(startTime)
      expect(blocks.map((b) => b.number)).toEqual([1_000_001n, 1_000_002n, 1_000_003n])
      for (const [i, block] of blocks.entries()) {
        const parent = state.blocks[i]!
        expect(block.parentHash).toBe(parent.blockId)
        expect(block.timestamp).toBe(parent.timestamp + 3000)
        expect(block.blockId.slice(0, 16)).toBe(block.number.toString(16).padStart(16, "0"))
        expect(block.blockId).toBe(Either.getOrThrow(BlockHeader.blockId(headerRaw(block))))
        expect(block.txTrieRoot).toBe("00".repeat(32))
        const hash = Either.getOrThrow(BlockHeader.hash(headerRaw(block)))
        const signer = TronSignature.recoverAddress(hash, new Uint8Array(Buffer.from(block.witnessSignature, "hex")))
        expect(signer).toEqual(TronAddress.fromHex(block.witnessAddress))
      }
    }))

  it.effect("takes block times from the clock and solidifies 19 blocks below the head", () =>
    Effect.gen(function*() {
      const chain = yield* testChain()
      yield* chain.mine(5)
      expect(solidified(yield* chain.state).number).toBe(1_000_000n)
      yield* chain.mine(20)
      const state = yield* chain.state
      expect(solidified(state).number).toBe(head(state).number - 19n)
      yield* TestClock.adjust("10 minutes")
      const [late] = yield* chain.mine()
      expect(late!.timestamp).toBe(startTime + 10 * 60 * 1000)
    }))

  it.effect("includes pending transactions with a Merkle root and receipts", () =>
    Effect.gen(function*() {
      const chain = yield* testChain()
      const txid = yield* chain.mintUsdt(outsider.address, 1_000_000n)
      expect(yield* isIncluded(chain, txid)).toBe(false)
      const [block] = yield* chain.mine()
      expect(block!.transactions.map((t) => t.tx.txid)).toEqual([txid])
      expect(block!.txTrieRoot).not.toBe("00".repeat(32))
      const info = yield* infoOf(chain, txid)
      expect(info.blockNumber).toBe(block!.number)
      expect(info.logs[0]!.topics[1]).toBe("00".repeat(32))
    }))

  it.effect("a reorganisation replaces the last blocks with others: new IDs, new parents, one block longer", () =>
    Effect.gen(function*() {
      const chain = yield* testChain()
      yield* chain.mine(5)
      const kept = yield* chain.mintUsdt(outsider.address, 1_000_000n)
      const excluded = yield* chain.mintUsdt(outsider.address, 2_000_000n)
      yield* chain.mine(3)
      const before = yield* chain.state
      const oldIds = before.blocks.slice(-3).map((b) => b.blockId)
      const keptBlock = Option.getOrThrow(Option.fromNullable(before.blocks.find((b) => b.transactions.some((t) => t.tx.txid === kept))))
      yield* chain.reorg(3, [excluded])
      const after = yield* chain.state
      expect(head(after).number).toBe(head(before).number + 1n)
      const forkPoint = after.blocks[after.blocks.length - 5]!
      expect(forkPoint.blockId).toBe(before.blocks[before.blocks.length - 4]!.blockId)
      const replaced = after.blocks.slice(-4)
      expect(replaced[0]!.parentHash).toBe(forkPoint.blockId)
      for (const [i, block] of replaced.slice(0, 3).entries()) expect(block.blockId).not.toBe(oldIds[i])
      expect(yield* isIncluded(chain, kept)).toBe(true)
      expect((yield* infoOf(chain, kept)).blockNumber).toBe(keptBlock.number)
      expect(yield* isIncluded(chain, excluded)).toBe(false)
    }))

  it.effect("refuses to reorganise solidified blocks", () =>
    Effect.gen(function*() {
      const chain = yield* testChain()
      yield* chain.mine(30)
      const error = yield* chain.reorg(20).pipe(Effect.flip)
      expect(error._tag).toBe("SimControlError")
    }))

  it.effect("a transaction referencing a block the reorganisation dropped fails TaPoS", () =>
    Effect.gen(function*() {
      const chain = yield* testChain({ genesisAccounts: [{ address: sender.address, trx: trx(100n), usdt: 10n }] })
      yield* chain.mine(3)
      const tx = yield* usdtTransfer(chain, sender, outsider.address, 1n, trx(50n))
      yield* chain.reorg(1)
      const refused = yield* signAndBroadcast(chain, tx, sender).pipe(Effect.flip)
      expect(refused).toMatchObject({ code: "TAPOS_ERROR", message: "Tapos check error." })
    }))

  it.effect("a pending transaction whose reference block is dropped never lands", () =>
    Effect.gen(function*() {
      const chain = yield* testChain({ genesisAccounts: [{ address: sender.address, trx: trx(100n), usdt: 10n }] })
      yield* chain.mine(3)
      const txid = yield* signAndBroadcast(chain, yield* usdtTransfer(chain, sender, outsider.address, 1n, trx(50n)), sender)
      yield* chain.mine()
      expect(yield* isIncluded(chain, txid)).toBe(true)
      yield* chain.reorg(2)
      expect(yield* isIncluded(chain, txid)).toBe(false)
    }))
})
