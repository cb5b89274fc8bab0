import { describe, expect, it } from "@effect/vitest"
import { Effect, Either, Option } from "effect"
import { fromRawData, signedHex } from "./SimTransaction.js"
import { isIncluded, testChain } from "./testing/SimTestChain.js"
import { signAndBroadcast, usdtTransfer, wallet } from "./testing/SimWallet.js"

const sender = wallet(1)
const other = wallet(2)
const trx = (n: bigint) => n * 1_000_000n

const funded = testChain({ genesisAccounts: [{ address: sender.address, trx: trx(100n), usdt: 100n }] })

describe("broadcasthex", () => {
  it.effect("accepts a transaction signed by its owner into the pool; a block includes it", () =>
    Effect.gen(function*() {
      const chain = yield* funded
      const tx = yield* usdtTransfer(chain, sender, other.address, 1n, trx(50n))
      expect(yield* signAndBroadcast(chain, tx, sender)).toBe(tx.txid)
      expect((yield* chain.state).pending.map((p) => p.tx.txid)).toEqual([tx.txid])
      yield* chain.mine()
      expect(yield* isIncluded(chain, tx.txid)).toBe(true)
    }))

  it.effect("refuses a signature by anyone but the owner, and a missing one: SIGERROR", () =>
    Effect.gen(function*() {
      const chain = yield* funded
      const tx = yield* usdtTransfer(chain, sender, other.address, 1n, trx(50n))
      const wrong = yield* signAndBroadcast(chain, tx, other).pipe(Effect.flip)
      expect(wrong).toMatchObject({ code: "SIGERROR" })
      expect(wrong.message).toContain(`is signed by ${other.address} but it is not contained of permission.`)
      const unsigned = yield* chain.broadcastHex(signedHex(tx)).pipe(Effect.flip)
      expect(unsigned).toMatchObject({ code: "SIGERROR", message: "Validate signature error: miss sig or contract" })
    }))

  it.effect("refuses a reference to a block not on the chain: TAPOS_ERROR", () =>
    Effect.gen(function*() {
      const chain = yield* funded
      const tx = yield* usdtTransfer(chain, sender, other.address, 1n, trx(50n))
      const forged = yield* usdtTransfer(chain, sender, other.address, 1n, trx(50n)).pipe(
        Effect.map((built) => ({ ...built, raw: { ...built.raw, ref_block_hash: "00".repeat(8) } }))
      )
      // Re-encoded, so that the txid covers the forged reference.
      const reencoded = Either.getOrThrow(fromRawData(forged.raw, []))
      expect(yield* signAndBroadcast(chain, reencoded, sender).pipe(Effect.flip)).toMatchObject({ code: "TAPOS_ERROR" })
      expect(yield* signAndBroadcast(chain, tx, sender)).toBe(tx.txid)
    }))

  it.effect("refuses an expired transaction: TRANSACTION_EXPIRATION_ERROR", () =>
    Effect.gen(function*() {
      const chain = yield* funded
      const tx = yield* usdtTransfer(chain, sender, other.address, 1n, trx(50n))
      // Expiration is 60 s after the reference block: 20 blocks later it is past.
      yield* chain.mine(20)
      expect(yield* signAndBroadcast(chain, tx, sender).pipe(Effect.flip)).toMatchObject({
        code: "TRANSACTION_EXPIRATION_ERROR",
        message: "Transaction expired"
      })
    }))

  it.effect("refuses a transaction already pending or included: DUP_TRANSACTION_ERROR", () =>
    Effect.gen(function*() {
      const chain = yield* funded
      const tx = yield* usdtTransfer(chain, sender, other.address, 1n, trx(50n))
      yield* signAndBroadcast(chain, tx, sender)
      expect(yield* signAndBroadcast(chain, tx, sender).pipe(Effect.flip)).toMatchObject({ code: "DUP_TRANSACTION_ERROR", message: "Dup transaction." })
      yield* chain.mine()
      expect(yield* signAndBroadcast(chain, tx, sender).pipe(Effect.flip)).toMatchObject({ code: "DUP_TRANSACTION_ERROR" })
    }))

  it.effect("refuses bytes that are not a transaction with the parser's exception", () =>
    Effect.gen(function*() {
      const chain = yield* funded
      expect(yield* chain.broadcastHex("0a05ff").pipe(Effect.flip)).toMatchObject({
        _tag: "MalformedRequest",
        exception: "com.google.protobuf.InvalidProtocolBufferException"
      })
    }))

  it.effect("a dropped broadcast is answered with success and never mined; it can be sent again", () =>
    Effect.gen(function*() {
      const chain = yield* funded
      const tx = yield* usdtTransfer(chain, sender, other.address, 1n, trx(50n))
      yield* chain.dropNextBroadcast()
      expect(yield* signAndBroadcast(chain, tx, sender)).toBe(tx.txid)
      yield* chain.mine(2)
      expect(yield* isIncluded(chain, tx.txid)).toBe(false)
      expect(yield* signAndBroadcast(chain, tx, sender)).toBe(tx.txid)
      yield* chain.mine()
      expect(yield* isIncluded(chain, tx.txid)).toBe(true)
    }))

  it.effect("a delayed broadcast waits its blocks in the pool", () =>
    Effect.gen(function*() {
      const chain = yield* funded
      const tx = yield* usdtTransfer(chain, sender, other.address, 1n, trx(50n))
      yield* chain.delayNextBroadcast(3)
      yield* signAndBroadcast(chain, tx, sender)
      yield* chain.mine(3)
      expect(yield* isIncluded(chain, tx.txid)).toBe(false)
      yield* chain.mine()
      expect(yield* isIncluded(chain, tx.txid)).toBe(true)
    }))

  it.effect("resetting the faults disarms a drop, a delay and a lost reply before they are used", () =>
    Effect.gen(function*() {
      const chain = yield* funded
      const tx = yield* usdtTransfer(chain, sender, other.address, 1n, trx(50n))
      yield* chain.dropNextBroadcast()
      yield* chain.delayNextBroadcast(3)
      yield* chain.loseNextReplies(1)
      yield* chain.fail("error", 60_000)
      yield* chain.resetFaults
      expect(yield* chain.takeLostReply("/wallet/broadcasthex")).toBe(false)
      expect(Option.isNone(yield* chain.outage)).toBe(true)
      yield* signAndBroadcast(chain, tx, sender)
      yield* chain.mine()
      expect(yield* isIncluded(chain, tx.txid)).toBe(true)
    }))
})
