import { Chain } from "@collector/core"
import { describe, expect, it } from "@effect/vitest"
import { Effect, Option, type Scope } from "effect"

/**
 * The contract every Chain adapter over a node must honour, written once and run against each
 * backend a harness can stand up (the simulator over HTTP, msw serving recorded java-tron
 * replies, ...). A harness provides the adapter plus the facts its backend holds; the suite
 * never derives an expectation from the adapter itself. Capabilities a backend lacks (a recorded
 * node cannot mine) skip the cases that need them under a name saying so, never silently.
 */

/** A block the backend holds, and what the adapter must read from it. */
export interface ContractBlock {
  readonly ref: Chain.BlockRef
  /** Every USDT Transfer of the block, in receipt order then log order. */
  readonly transfers: ReadonlyArray<Chain.UsdtTransfer>
  /** A transaction of the block with at least two USDT Transfer logs, where the backend has one. */
  readonly severalLogsTxid?: string
  /** A successful transaction of the block whose Transfer log comes from another token. */
  readonly otherTokenTxid?: string
  /** A failed transaction of the block (not SUCCESS); where it carries a USDT log, that log must not count. */
  readonly failedTxid?: string
}

export interface ContractFacts {
  readonly head: Chain.BlockRef
  readonly solidified: Chain.BlockRef
  readonly block: ContractBlock
  /** A block number the backend does not have (`{}`). */
  readonly missingBlock: bigint
  /** An account at the solidified block; java-tron omits its zero fields, which must read as 0. */
  readonly account: Chain.AccountState
  /** A valid address the chain does not know (`{}`). */
  readonly unknownAccount: string
  readonly receipt: Chain.Receipt
  /** A well-formed txid the backend does not know (`{}`). */
  readonly unknownTxid: string
  readonly parameters: Chain.ChainParameters
  /** A transfer the backend refuses to estimate with an HTTP-200 error reply, and the adapter's reason. */
  readonly refusedEstimate: {
    readonly transfer: { readonly from: string; readonly to: string; readonly amount: bigint }
    readonly reason: string
  }
}

export interface ContractBackend {
  readonly chain: Chain.ChainService
  readonly facts: ContractFacts
  /** Produces `count` blocks on the backend. */
  readonly mine?: (count: number) => Effect.Effect<void>
  /** Has an outside account send a USDT transfer (into the pool, not yet in a block). */
  readonly transfer?: (amount: bigint) => Effect.Effect<{ readonly txid: string; readonly from: string; readonly to: string }>
}

/**
 * What a backend can do or show beyond the facts every backend holds: `mine` and `transfer` are
 * actions; the others say the facts' block has that kind of receipt. Declared statically so that
 * the cases needing them are registered, or skipped by name, before any backend starts.
 */
export type Capability = "mine" | "transfer" | "severalLogsInOneTx" | "otherTokenLog" | "failedReceipt"

export interface ContractHarness {
  /** Names the backend in test titles. */
  readonly name: string
  readonly capabilities: ReadonlyArray<Capability>
  /** Fresh per test, inside the test's scope. */
  readonly backend: Effect.Effect<ContractBackend, never, Scope.Scope>
}

/** Bytes that are no protobuf Transaction: a node answers `{"Error": "...InvalidProtocolBufferException : ..."}` with HTTP 200. */
export const garbageTransaction = {
  txid: "00".repeat(32),
  rawDataHex: "ff",
  expiration: new Date(0),
  feeLimit: 1n,
  signatures: ["00".repeat(65)]
}

const required = <A>(value: A | undefined, what: string): A => {
  if (value === undefined) throw new Error(`the harness declares ${what} but its facts lack it`)
  return value
}

export const chainContractSuite = (harness: ContractHarness) => {
  /** A case needing capabilities the harness lacks is registered as skipped, its title saying why. */
  const test = (needed: ReadonlyArray<Capability>, title: string, body: (backend: ContractBackend) => Effect.Effect<void, unknown>) =>
    needed.every((c) => harness.capabilities.includes(c))
      ? it.scopedLive(title, () => Effect.flatMap(harness.backend, body))
      : it.skip(`${title} [skipped: ${harness.name} lacks ${needed.join(", ")}]`, () => {})

  describe(`Chain contract: ${harness.name}`, () => {
    test([], "reads the head block ref", ({ chain, facts }) =>
      Effect.gen(function*() {
        expect(yield* chain.headBlock).toEqual(facts.head)
      }))

    test([], "reads the solidified block ref, at or below the head", ({ chain, facts }) =>
      Effect.gen(function*() {
        const solidified = yield* chain.solidifiedBlock
        expect(solidified).toEqual(facts.solidified)
        expect(solidified.number <= (yield* chain.headBlock).number).toBe(true)
      }))

    test([], "reads a block's ref and exactly its USDT Transfers, with their log indexes", ({ chain, facts }) =>
      Effect.gen(function*() {
        const { block, transfers } = yield* chain.blockTransfers(facts.block.ref.number)
        expect(block).toEqual(facts.block.ref)
        expect(transfers.length).toBeGreaterThan(0)
        expect(transfers).toEqual(facts.block.transfers)
      }))

    test(["severalLogsInOneTx"], "reads several USDT Transfer logs of one transaction, each with its own log index", ({ chain, facts }) =>
      Effect.gen(function*() {
        const txid = required(facts.block.severalLogsTxid, "severalLogsInOneTx")
        const { transfers } = yield* chain.blockTransfers(facts.block.ref.number)
        const ofTx = transfers.filter((t) => t.txid === txid)
        expect(ofTx.length).toBeGreaterThan(1)
        expect(new Set(ofTx.map((t) => t.logIndex)).size).toBe(ofTx.length)
        expect(ofTx).toEqual(facts.block.transfers.filter((t) => t.txid === txid))
      }))

    test(["otherTokenLog"], "ignores another token's Transfer log in a successful receipt", ({ chain, facts }) =>
      Effect.gen(function*() {
        const txid = required(facts.block.otherTokenTxid, "otherTokenLog")
        const { transfers } = yield* chain.blockTransfers(facts.block.ref.number)
        expect(transfers.filter((t) => t.txid === txid)).toEqual([])
      }))

    test(["failedReceipt"], "counts nothing from a failed receipt", ({ chain, facts }) =>
      Effect.gen(function*() {
        const txid = required(facts.block.failedTxid, "failedReceipt")
        const { transfers } = yield* chain.blockTransfers(facts.block.ref.number)
        expect(transfers.filter((t) => t.txid === txid)).toEqual([])
      }))

    test([], "says BlockNotFound for a block the node does not have ({})", ({ chain, facts }) =>
      Effect.gen(function*() {
        expect(yield* chain.blockTransfers(facts.missingBlock).pipe(Effect.flip)).toEqual(new Chain.BlockNotFound({ number: facts.missingBlock }))
      }))

    test([], "reads an account at the solidified block, omitted zero fields as 0", ({ chain, facts }) =>
      Effect.gen(function*() {
        expect(yield* chain.account(facts.account.address)).toEqual(facts.account)
      }))

    test([], "reads balances at least as recent as a solidified block the caller read, with or without resources", ({ chain, facts }) =>
      Effect.gen(function*() {
        const { address, activated, trx, usdt } = facts.account
        const atBlock = facts.solidified.number
        expect(yield* chain.balances(address, atBlock)).toEqual({ address, activated, trx, usdt, atBlock })
        expect(yield* chain.account(address, atBlock)).toEqual({ ...facts.account, atBlock })
        expect(yield* chain.balances(facts.unknownAccount, atBlock)).toEqual({ address: facts.unknownAccount, activated: false, trx: 0n, usdt: 0n, atBlock })
      }))

    test([], "reads the USDT balance alone, and the TRX balance and activation alone, as the balances give them", ({ chain, facts }) =>
      Effect.gen(function*() {
        const { address, activated, trx, usdt } = facts.account
        expect(yield* chain.usdtBalance(address)).toBe(usdt)
        expect(yield* chain.trxBalance(address)).toEqual({ activated, trx })
        expect(yield* chain.usdtBalance(facts.unknownAccount)).toBe(0n)
        expect(yield* chain.trxBalance(facts.unknownAccount)).toEqual({ activated: false, trx: 0n })
      }))

    test([], "reads an address the chain does not know ({}) as not activated, with zero balances", ({ chain, facts }) =>
      Effect.gen(function*() {
        expect(yield* chain.account(facts.unknownAccount)).toMatchObject({
          address: facts.unknownAccount,
          activated: false,
          trx: 0n,
          usdt: 0n,
          energyLimit: 0n,
          stakedBandwidthLimit: 0n,
          atBlock: facts.solidified.number
        })
      }))

    test([], "reads a receipt by id, and None for an unknown transaction ({})", ({ chain, facts }) =>
      Effect.gen(function*() {
        expect(yield* chain.receipt(facts.receipt.txid)).toEqual(Option.some(facts.receipt))
        expect(yield* chain.receipt(facts.receipt.txid.toUpperCase())).toEqual(Option.some(facts.receipt))
        expect(yield* chain.receipt(facts.unknownTxid)).toEqual(Option.none())
      }))

    test([], "reads the chain parameters", ({ chain, facts }) =>
      Effect.gen(function*() {
        expect(yield* chain.parameters).toEqual(facts.parameters)
      }))

    test([], "turns an error reply sent with HTTP 200 into ChainRejected naming the endpoint", ({ chain, facts }) =>
      Effect.gen(function*() {
        const error = yield* chain.estimateTransferEnergy(facts.refusedEstimate.transfer).pipe(Effect.flip)
        expect(error._tag).toBe("ChainRejected")
        expect(error.reason).toBe(facts.refusedEstimate.reason)
      }))

    test([], "reports a broadcast the node cannot parse ({\"Error\"} with HTTP 200) as Rejected", ({ chain }) =>
      Effect.gen(function*() {
        expect(yield* chain.broadcast(garbageTransaction)).toMatchObject({ _tag: "Rejected", code: "InvalidProtocolBufferException" })
      }))

    test(["mine"], "follows the head as blocks are mined: each builds on the previous one", ({ chain, mine }) =>
      Effect.gen(function*() {
        const before = yield* chain.headBlock
        const solidBefore = yield* chain.solidifiedBlock
        yield* mine!(2)
        const after = yield* chain.headBlock
        expect(after.number).toBe(before.number + 2n)
        const middle = (yield* chain.blockTransfers(before.number + 1n)).block
        expect(middle.parentHash).toBe(before.hash)
        expect(after.parentHash).toBe(middle.hash)
        expect((yield* chain.solidifiedBlock).number).toBe(solidBefore.number + 2n)
        expect(yield* chain.blockTransfers(after.number + 1n).pipe(Effect.flip)).toEqual(new Chain.BlockNotFound({ number: after.number + 1n }))
      }))

    test(["mine", "transfer"], "sees a new USDT transfer in the block that includes it", ({ chain, facts, mine, transfer }) =>
      Effect.gen(function*() {
        const sent = yield* transfer!(1_234_567n)
        yield* mine!(1)
        const head = yield* chain.headBlock
        const { block, transfers } = yield* chain.blockTransfers(head.number)
        expect(block).toEqual(head)
        expect(transfers).toEqual([{ ...sent, logIndex: 0, amount: 1_234_567n, contract: facts.block.transfers[0]!.contract }])
      }))
  })
}
