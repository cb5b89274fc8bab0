import { describe, expect } from "@effect/vitest"
import { Cause, Effect, Exit, type Layer, Option, TestClock } from "effect"
import type { BlockRef } from "../chain/ChainModel.js"
import { DepositRepository } from "../deposits/DepositRepository.js"
import type { Network } from "../kernel/Network.js"
import { CursorMoved, type ObservedTransfer, ScanLedger, type ScannedBlock, type WalletMatch } from "./ScanLedger.js"
import type { TenantScope } from "../tenants/Scope.js"
import { TenantRepository } from "../tenants/TenantRepository.js"
import { onFreshStorage } from "../testing/FreshStorage.js"
import { type FixtureWallet, StorageFixtures } from "../testing/StorageFixtures.js"

const genesis = Date.UTC(2026, 0, 1)

/** 64 hex characters, different for every number and fork. */
const hashOf = (number: bigint, fork: string) => `${fork}${number.toString(16)}`.padStart(64, "0")

/** Block `number` of a chain `fork`, one block every three seconds. */
const block = (number: bigint, fork = "a"): BlockRef => ({
  number,
  hash: hashOf(number, fork),
  parentHash: hashOf(number - 1n, fork),
  timestamp: new Date(genesis + Number(number) * 3_000)
})

/** The blocks most tests store, on chain "a". */
const [b10, b11, b12, b13] = [10n, 11n, 12n, 13n].map((n) => block(n)) as [BlockRef, BlockRef, BlockRef, BlockRef]

const at = (b: BlockRef) => ({ number: b.number, hash: b.hash })

const scanned = (
  b: BlockRef,
  transfers: ReadonlyArray<ObservedTransfer> = [],
  ownSweeps: ReadonlyArray<ObservedTransfer> = [],
  outflows: ReadonlyArray<ObservedTransfer> = []
): ScannedBlock => ({
  block: b,
  transfers,
  ownSweeps,
  outflows
})

const tip = { head: 100n, solidified: 80n }
const source = "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t"
const contract = "TXYZopYRdj2D9XRtbG411XZZ3kM5VkAeBf"

const matchOf = (scope: TenantScope, wallet: FixtureWallet): WalletMatch => ({
  walletId: wallet.id,
  tenantId: scope.tenantId,
  address: wallet.address,
  customId: wallet.customId,
  depositMinimum: null
})

/** A USDT transfer to `wallet` in block `b`; `tx` names the transaction (one hex digit pair). */
const transfer = (b: BlockRef, wallet: WalletMatch, tx: string, logIndex = 0, amount = 1_000_000n): ObservedTransfer => ({
  block: b,
  transfer: { txid: tx.repeat(32), logIndex, from: source, to: wallet.address, amount, contract },
  wallet
})

/** A USDT transfer out of `wallet` in block `b` that no sweep task made. */
const outflow = (b: BlockRef, wallet: WalletMatch, tx: string, logIndex = 0, amount = 2_000_000n): ObservedTransfer => ({
  block: b,
  transfer: { txid: tx.repeat(32), logIndex, from: wallet.address, to: source, amount, contract },
  wallet
})

/** A tenant on `network` with `count` wallets, as the matches the scanner looks up. */
const tenantWallets = (count: number, network: Network = "nile") =>
  Effect.gen(function*() {
    const fixtures = yield* StorageFixtures
    const scope = yield* fixtures.scope(network)
    const wallets = yield* Effect.forEach(Array.from({ length: count }), () => fixtures.wallet(scope))
    return { scope, wallets, matches: wallets.map((w) => matchOf(scope, w)) }
  })

const logs = (network: Network = "nile") =>
  Effect.flatMap(StorageFixtures, (fixtures) => fixtures.observedLogs(network)).pipe(
    Effect.map((rows) => rows.map((r) => `${r.txid.slice(0, 2)}/${r.logIndex}@${r.blockNumber}${r.booked ? " booked" : ""}`))
  )

const staleFrom = (wallet: WalletMatch) =>
  Effect.map(Effect.flatMap(StorageFixtures, (fixtures) => fixtures.walletBalances(wallet.walletId)), (b) => b.staleFrom)

const stored = (network: Network, number: bigint) => Effect.flatMap(ScanLedger, (ledger) => ledger.storedBlock(network, number))

const expectDefect = <A, E, R>(effect: Effect.Effect<A, E, R>) =>
  Effect.map(Effect.exit(effect), (exit) => expect(Exit.isFailure(exit) && Cause.isDie(exit.cause)).toBe(true))

/** Lets real time pass as well as test time: PostgreSQL's leases run on the database's clock. */
const wait = (millis: number) =>
  Effect.zipRight(Effect.promise(() => new Promise((resolve) => setTimeout(resolve, millis))), TestClock.adjust(millis))

/**
 * What every ScanLedger must do, run against each implementation. The cursor, blocks and lease
 * are per network (there are two), so each test runs on a store of its own.
 */
export const scanLedgerContract = <E>(name: string, storage: Layer.Layer<ScanLedger | DepositRepository | TenantRepository | StorageFixtures, E>) =>
  describe(`ScanLedger contract (${name})`, () => {
    const test = onFreshStorage(storage)

    test("the first append stores its blocks and creates the cursor; another first append loses and writes nothing", () =>
      Effect.gen(function*() {
        const ledger = yield* ScanLedger
        expect(yield* ledger.cursor("nile")).toEqual(Option.none())
        expect(yield* ledger.oldestStored("nile")).toEqual(Option.none())
        yield* ledger.append("nile", Option.none(), [scanned(b10), scanned(b11)], tip)
        expect(yield* ledger.cursor("nile")).toEqual(Option.some(at(b11)))
        expect(yield* stored("nile", 10n)).toEqual(Option.some(b10))
        expect(yield* stored("nile", 11n)).toEqual(Option.some(b11))
        expect(yield* stored("nile", 12n)).toEqual(Option.none())
        expect(yield* ledger.oldestStored("nile")).toEqual(Option.some(10n))
        const lost = yield* Effect.flip(ledger.append("nile", Option.none(), [scanned(block(12n, "b"))], tip))
        expect(lost).toEqual(new CursorMoved({ network: "nile" }))
        expect(yield* ledger.cursor("nile")).toEqual(Option.some(at(b11)))
        expect(yield* stored("nile", 12n)).toEqual(Option.none())
        // The other network is another chain.
        expect(yield* ledger.cursor("main")).toEqual(Option.none())
        expect(yield* stored("main", 10n)).toEqual(Option.none())
        expect(yield* ledger.oldestStored("main")).toEqual(Option.none())
      }))

    test("append moves the cursor only from the position the caller read", () =>
      Effect.gen(function*() {
        const ledger = yield* ScanLedger
        yield* ledger.append("nile", Option.none(), [scanned(b10)], tip)
        yield* ledger.append("nile", Option.some(at(b10)), [scanned(b11), scanned(b12)], tip)
        expect(yield* ledger.cursor("nile")).toEqual(Option.some(at(b12)))
        const stale = [
          Option.some(at(b10)),
          Option.some({ number: 12n, hash: hashOf(12n, "b") }),
          Option.some({ number: 11n, hash: hashOf(12n, "a") })
        ]
        for (const from of stale) {
          expect(yield* Effect.flip(ledger.append("nile", from, [scanned(block(13n, "c"))], tip))).toEqual(new CursorMoved({ network: "nile" }))
        }
        expect(yield* stored("nile", 13n)).toEqual(Option.none())
        expect(yield* ledger.cursor("nile")).toEqual(Option.some(at(b12)))
        // No cursor on main to move.
        expect(yield* Effect.flip(ledger.append("main", Option.some(at(b12)), [scanned(b13)], tip)))
          .toEqual(new CursorMoved({ network: "main" }))
        expect(yield* ledger.cursor("main")).toEqual(Option.none())
      }))

    test("a failed append leaves the cursor, blocks, transfers and balance marks as they were", () =>
      Effect.gen(function*() {
        const ledger = yield* ScanLedger
        const { matches: [w] } = yield* tenantWallets(1)
        yield* ledger.append("nile", Option.none(), [scanned(b10)], tip)
        // Block 10 is stored already: the write fails as a whole.
        yield* expectDefect(ledger.append("nile", Option.some(at(b10)), [
          scanned(b11, [transfer(b11, w!, "11")]),
          scanned(b10, [transfer(b10, w!, "22")])
        ], tip))
        // One log twice in one write: refused as a whole too.
        yield* expectDefect(ledger.append("nile", Option.some(at(b10)), [
          scanned(b11, [transfer(b11, w!, "11")]),
          scanned(b12, [transfer(b12, w!, "11")])
        ], tip))
        expect(yield* ledger.cursor("nile")).toEqual(Option.some(at(b10)))
        expect(yield* stored("nile", 11n)).toEqual(Option.none())
        expect(yield* logs()).toEqual([])
        expect(yield* staleFrom(w!)).toBeNull()
      }))

    test("append stores the deposits of its blocks, not our own sweeps, and marks every wallet either reached stale", () =>
      Effect.gen(function*() {
        const ledger = yield* ScanLedger
        const fixtures = yield* StorageFixtures
        const { matches } = yield* tenantWallets(4)
        const [w1, w2, w3, untouched] = matches as [WalletMatch, WalletMatch, WalletMatch, WalletMatch]
        yield* ledger.append("nile", Option.none(), [
          scanned(b10, [transfer(b10, w1, "11")]),
          scanned(b11, [], [transfer(b11, w2, "22")]),
          scanned(b12, [transfer(b12, w1, "33", 2), transfer(b12, w3, "33", 0)])
        ], tip)
        expect(yield* logs()).toEqual(["11/0@10", "33/0@12", "33/2@12"])
        const [first] = yield* fixtures.observedLogs("nile")
        expect(first).toEqual({
          txid: "11".repeat(32), logIndex: 0, blockNumber: 10n, blockHash: b10.hash, walletId: w1.walletId, amount: 1_000_000n, booked: false
        })
        // From the highest block that reached each wallet in the batch.
        expect([yield* staleFrom(w1), yield* staleFrom(w2), yield* staleFrom(w3), yield* staleFrom(untouched)]).toEqual([12n, 11n, 12n, null])
        // A mark never moves down.
        yield* fixtures.markBalanceStale(w1.walletId, 20n)
        yield* ledger.append("nile", Option.some(at(b12)), [scanned(b13, [transfer(b13, w1, "44")], [transfer(b13, w2, "55")])], tip)
        expect([yield* staleFrom(w1), yield* staleFrom(w2)]).toEqual([20n, 13n])
        expect(yield* logs()).toEqual(["11/0@10", "33/0@12", "33/2@12", "44/0@13"])
        expect(yield* logs("main")).toEqual([])
      }))

    test("a transfer stored again from another block moves there and is no longer booked", () =>
      Effect.gen(function*() {
        const ledger = yield* ScanLedger
        const fixtures = yield* StorageFixtures
        const { matches: [w] } = yield* tenantWallets(1)
        yield* ledger.append("nile", Option.none(), [scanned(b10, [transfer(b10, w!, "aa")])], tip)
        yield* fixtures.markLogBooked("nile", "aa".repeat(32), 0)
        expect(yield* logs()).toEqual(["aa/0@10 booked"])
        yield* ledger.append("nile", Option.some(at(b10)), [scanned(b11, [transfer(b11, w!, "aa")])], tip)
        expect(yield* logs()).toEqual(["aa/0@11"])
        expect((yield* fixtures.observedLogs("nile"))[0]!.blockHash).toBe(b11.hash)
      }))

    test("unaccounted outflows are stored with their block, listed open in block order, closed once, and a re-scan stores none twice", () =>
      Effect.gen(function*() {
        const ledger = yield* ScanLedger
        const { matches: [w], scope } = yield* tenantWallets(1)
        const [aa, bb, cc] = [outflow(b11, w!, "aa"), outflow(b11, w!, "bb", 1, 7n), outflow(b12, w!, "cc")] as const
        yield* ledger.append("nile", Option.none(), [scanned(b10)], tip)
        yield* ledger.append("nile", Option.some(at(b10)), [scanned(b11, [], [], [bb, aa]), scanned(b12, [], [], [cc])], tip)
        const open = yield* ledger.openOutflows("nile", 10)
        expect(open.map((o) => o.transfer.txid.slice(0, 2))).toEqual(["aa", "bb", "cc"])
        expect(open[1]).toEqual({
          network: "nile",
          block: { number: 11n, hash: b11.hash, parentHash: "", timestamp: b11.timestamp },
          transfer: bb.transfer,
          wallet: { walletId: w!.walletId, tenantId: scope.tenantId, address: w!.address, customId: w!.customId, depositMinimum: null },
          state: "open",
          taskId: null
        })
        expect((yield* ledger.openOutflows("nile", 2)).map((o) => o.transfer.txid.slice(0, 2))).toEqual(["aa", "bb"])
        expect(yield* ledger.openOutflows("main", 10)).toEqual([])
        // Closed once: the second close of the same outflow writes nothing and says so.
        expect(yield* ledger.closeOutflow("nile", aa.transfer, { state: "reported" })).toBe(true)
        expect(yield* ledger.closeOutflow("nile", aa.transfer, { state: "restored", taskId: "42" })).toBe(false)
        expect(yield* ledger.closeOutflow("nile", bb.transfer, { state: "restored", taskId: "42" })).toBe(true)
        expect(yield* ledger.closeOutflow("main", cc.transfer, { state: "reported" })).toBe(false)
        expect((yield* ledger.openOutflows("nile", 10)).map((o) => o.transfer.txid.slice(0, 2))).toEqual(["cc"])
        // A rewind takes the open outflow of a dropped block with it; the closed ones stay closed,
        // and the same blocks scanned again store nothing twice.
        yield* ledger.rewind("nile", at(b12), at(b10))
        expect(yield* ledger.openOutflows("nile", 10)).toEqual([])
        yield* ledger.append("nile", Option.some(at(b10)), [scanned(b11, [], [], [aa, bb]), scanned(b12, [], [], [cc])], tip)
        expect((yield* ledger.openOutflows("nile", 10)).map((o) => o.transfer.txid.slice(0, 2))).toEqual(["cc"])
        expect(yield* ledger.closeOutflow("nile", aa.transfer, { state: "reported" })).toBe(false)
        expect(yield* ledger.closeOutflow("nile", cc.transfer, { state: "reported" })).toBe(true)
        expect(yield* ledger.openOutflows("nile", 10)).toEqual([])
        // Forgetting the network's scan forgets its outflows.
        yield* ledger.forget("nile")
        yield* ledger.append("nile", Option.none(), [scanned(b12, [], [], [cc])], tip)
        expect((yield* ledger.openOutflows("nile", 10)).map((o) => o.transfer.txid.slice(0, 2))).toEqual(["cc"])
      }))

    test("open outflows are listed by block number as a number (block 9 before block 10)", () =>
      Effect.gen(function*() {
        const ledger = yield* ScanLedger
        const { matches: [w] } = yield* tenantWallets(1)
        const [b8, b9] = [block(8n), block(9n)] as const
        yield* ledger.append("nile", Option.none(), [
          scanned(b8, [], [], [outflow(b8, w!, "bb")]),
          scanned(b9, [], [], [outflow(b9, w!, "aa")]),
          scanned(b10, [], [], [outflow(b10, w!, "cc")])
        ], tip)
        expect((yield* ledger.openOutflows("nile", 10)).map((o) => o.block.number)).toEqual([8n, 9n, 10n])
        expect((yield* ledger.openOutflows("nile", 1)).map((o) => o.block.number)).toEqual([8n])
      }))

    test("rewind drops the blocks above the target and every transfer in them, from the position the caller read", () =>
      Effect.gen(function*() {
        const ledger = yield* ScanLedger
        const fixtures = yield* StorageFixtures
        const { matches: [w] } = yield* tenantWallets(1)
        yield* ledger.append("nile", Option.none(), [
          scanned(b10),
          scanned(b11, [transfer(b11, w!, "11")]),
          scanned(b12, [transfer(b12, w!, "22")]),
          scanned(b13, [transfer(b13, w!, "33")])
        ], tip)
        yield* fixtures.markLogBooked("nile", "22".repeat(32), 0)
        expect(yield* Effect.flip(ledger.rewind("nile", at(b12), at(b10)))).toEqual(new CursorMoved({ network: "nile" }))
        expect(yield* logs()).toEqual(["11/0@11", "22/0@12 booked", "33/0@13"])
        expect(yield* stored("nile", 13n)).toEqual(Option.some(b13))
        yield* ledger.rewind("nile", at(b13), at(b11))
        expect(yield* ledger.cursor("nile")).toEqual(Option.some(at(b11)))
        expect([yield* stored("nile", 11n), yield* stored("nile", 12n), yield* stored("nile", 13n)])
          .toEqual([Option.some(b11), Option.none(), Option.none()])
        expect(yield* logs()).toEqual(["11/0@11"])
        // The scan goes on along the other fork.
        yield* ledger.append("nile", Option.some(at(b11)), [scanned(block(12n, "b"))], tip)
        expect(yield* stored("nile", 12n)).toEqual(Option.some(block(12n, "b")))
        expect(yield* Effect.flip(ledger.rewind("main", at(b13), at(b11)))).toEqual(new CursorMoved({ network: "main" }))
      }))

    test("restore stores the missing transfers of blocks still stored as they were, never one confirmed in that block", () =>
      Effect.gen(function*() {
        const ledger = yield* ScanLedger
        const fixtures = yield* StorageFixtures
        const { matches: [w], scope, wallets } = yield* tenantWallets(1)
        const [b20, b21] = [block(20n), block(21n)]
        yield* ledger.append("nile", Option.none(), [scanned(b20, [transfer(b20, w!, "11")]), scanned(b21), scanned(block(22n))], tip)
        const confirmedAs = (tx: string, blockHash: string, status: "confirmed" | "reverted" = "confirmed") =>
          fixtures.seedDeposit(scope, wallets[0]!, { txid: tx.repeat(32), logIndex: 0, blockNumber: 21n, blockHash, status })
        yield* confirmedAs("55", b21.hash)
        yield* confirmedAs("66", block(21n, "b").hash)
        yield* confirmedAs("77", b21.hash, "reverted")
        expect(yield* ledger.restore("nile", [])).toBe(0)
        const restored = yield* ledger.restore("nile", [
          transfer(b20, w!, "11"), // stored already
          transfer(b21, w!, "22"),
          transfer(block(21n, "b"), w!, "33"), // its block is stored with another hash
          transfer(block(30n), w!, "44"), // its block is not stored
          transfer(b21, w!, "22"), // twice in one call: stored once
          transfer(b21, w!, "55"), // confirmed in this very block
          transfer(b21, w!, "66"), // confirmed in a block the chain no longer has
          transfer(b21, w!, "77") // reverted
        ])
        expect(restored).toBe(3)
        expect(yield* logs()).toEqual(["11/0@20", "22/0@21", "66/0@21", "77/0@21"])
        expect(yield* ledger.restore("main", [transfer(b21, w!, "88")])).toBe(0)
      }))

    test("prune forgets the blocks below and the booked transfers in them; unbooked ones stay", () =>
      Effect.gen(function*() {
        const ledger = yield* ScanLedger
        const fixtures = yield* StorageFixtures
        const { matches: [w] } = yield* tenantWallets(1)
        yield* ledger.append("nile", Option.none(), [
          scanned(b10, [transfer(b10, w!, "11"), transfer(b10, w!, "22")]),
          scanned(b11),
          scanned(b12, [transfer(b12, w!, "33")]),
          scanned(b13)
        ], tip)
        for (const tx of ["11", "33"]) yield* fixtures.markLogBooked("nile", tx.repeat(32), 0)
        yield* ledger.prune("main", 100n)
        expect(yield* ledger.oldestStored("nile")).toEqual(Option.some(10n))
        yield* ledger.prune("nile", 12n)
        expect([yield* stored("nile", 10n), yield* stored("nile", 11n), yield* stored("nile", 12n), yield* stored("nile", 13n)])
          .toEqual([Option.none(), Option.none(), Option.some(b12), Option.some(b13)])
        expect(yield* ledger.oldestStored("nile")).toEqual(Option.some(12n))
        expect(yield* logs()).toEqual(["22/0@10", "33/0@12 booked"])
        expect(yield* ledger.cursor("nile")).toEqual(Option.some(at(b13)))
      }))

    test("forget clears the network's cursor, blocks and transfers; the other network and the deposits stay", () =>
      Effect.gen(function*() {
        const ledger = yield* ScanLedger
        const fixtures = yield* StorageFixtures
        const { matches: [w], scope, wallets } = yield* tenantWallets(1)
        const onMain = yield* tenantWallets(1, "main")
        yield* ledger.append("nile", Option.none(), [scanned(b10, [transfer(b10, w!, "11")])], tip)
        yield* ledger.append("main", Option.none(), [scanned(block(10n, "b"), [transfer(block(10n, "b"), onMain.matches[0]!, "11")])], tip)
        const deposit = yield* fixtures.seedDeposit(scope, wallets[0]!, { txid: "11".repeat(32) })
        yield* ledger.forget("nile")
        expect(yield* ledger.cursor("nile")).toEqual(Option.none())
        expect(yield* stored("nile", 10n)).toEqual(Option.none())
        expect(yield* ledger.oldestStored("nile")).toEqual(Option.none())
        expect(yield* logs()).toEqual([])
        expect(yield* ledger.cursor("main")).toEqual(Option.some(at(block(10n, "b"))))
        expect(yield* logs("main")).toEqual(["11/0@10"])
        const kept = yield* Effect.flatMap(DepositRepository, (repo) => repo.find(scope, deposit.id))
        expect(Option.map(kept, (d) => d.txid)).toEqual(Option.some("11".repeat(32)))
        // The next scan starts afresh.
        yield* ledger.append("nile", Option.none(), [scanned(block(500n, "c"))], tip)
        expect(yield* ledger.cursor("nile")).toEqual(Option.some(at(block(500n, "c"))))
      }))

    test("the lease: anyone may scan before the first block; then one holder at a time, renewed and released by its holder", () =>
      Effect.gen(function*() {
        const ledger = yield* ScanLedger
        expect([yield* ledger.claimLease("nile", "A", 60_000), yield* ledger.claimLease("nile", "B", 60_000)]).toEqual([true, true])
        yield* ledger.append("nile", Option.none(), [scanned(b10)], tip)
        expect(yield* ledger.claimLease("nile", "A", 60_000)).toBe(true)
        expect(yield* ledger.claimLease("nile", "B", 60_000)).toBe(false)
        expect(yield* ledger.claimLease("nile", "A", 60_000)).toBe(true)
        // Only the holder releases its lease.
        yield* ledger.releaseLease("nile", "B")
        expect(yield* ledger.claimLease("nile", "B", 60_000)).toBe(false)
        yield* ledger.releaseLease("nile", "A")
        expect(yield* ledger.claimLease("nile", "B", 60_000)).toBe(true)
        expect(yield* ledger.claimLease("nile", "A", 60_000)).toBe(false)
        // Each network has its own lease.
        yield* ledger.append("main", Option.none(), [scanned(block(10n, "b"))], tip)
        expect(yield* ledger.claimLease("main", "A", 60_000)).toBe(true)
        expect(yield* ledger.claimLease("main", "B", 60_000)).toBe(false)
      }))

    test("a lease that ran out is taken by another holder", () =>
      Effect.gen(function*() {
        const ledger = yield* ScanLedger
        yield* ledger.append("nile", Option.none(), [scanned(b10)], tip)
        expect(yield* ledger.claimLease("nile", "A", 1)).toBe(true)
        yield* wait(20)
        expect(yield* ledger.claimLease("nile", "B", 60_000)).toBe(true)
        expect(yield* ledger.claimLease("nile", "A", 60_000)).toBe(false)
      }))

    test("walletsAt: the network's wallets at the given addresses", () =>
      Effect.gen(function*() {
        const ledger = yield* ScanLedger
        const fixtures = yield* StorageFixtures
        const { matches: [w1, w2, w3] } = yield* tenantWallets(3)
        const other = yield* tenantWallets(1)
        // The same address on the other network is another wallet.
        const mainScope = yield* fixtures.scope("main")
        const onMain = matchOf(mainScope, yield* fixtures.wallet(mainScope, { address: w1!.address }))
        const byId = (matches: ReadonlyArray<WalletMatch>) => [...matches].sort((a, b) => Number(BigInt(a.walletId) - BigInt(b.walletId)))
        expect(byId(yield* ledger.walletsAt("nile", [w2!.address, other.matches[0]!.address, "TUnknownAddress", w1!.address])))
          .toEqual([w1, w2, other.matches[0]])
        expect(yield* ledger.walletsAt("main", [w1!.address, w3!.address])).toEqual([onMain])
        expect(yield* ledger.walletsAt("nile", [])).toEqual([])
      }))

    test("walletsAt: each wallet with its tenant's own deposit minimum on that network, or null", () =>
      Effect.gen(function*() {
        const ledger = yield* ScanLedger
        const fixtures = yield* StorageFixtures
        const { matches: [strict], scope } = yield* tenantWallets(1)
        const { matches: [lenient] } = yield* tenantWallets(1)
        const mainScope = yield* fixtures.scope("main")
        const onMain = yield* fixtures.wallet(mainScope, { address: strict!.address })
        const tenants = yield* TenantRepository
        yield* tenants.setDepositMinimum(scope.tenantId, "nile", 123_456_789_012_345_678_901n)
        yield* tenants.setDepositMinimum(mainScope.tenantId, "main", 0n)
        const found = yield* ledger.walletsAt("nile", [strict!.address, lenient!.address])
        expect(new Map(found.map((w) => [w.walletId, w.depositMinimum]))).toEqual(
          new Map([[strict!.walletId, 123_456_789_012_345_678_901n], [lenient!.walletId, null]])
        )
        expect((yield* ledger.walletsAt("main", [onMain.address])).map((w) => w.depositMinimum)).toEqual([0n])
        yield* tenants.setDepositMinimum(scope.tenantId, "nile", null)
        expect((yield* ledger.walletsAt("nile", [strict!.address])).map((w) => w.depositMinimum)).toEqual([null])
      }))

    test("sweepsAmong: our signed sweep transactions among the txids, with the tenant, source and destination", () =>
      Effect.gen(function*() {
        const ledger = yield* ScanLedger
        const fixtures = yield* StorageFixtures
        const { scope, wallets } = yield* tenantWallets(3)
        const mainSide = yield* tenantWallets(1, "main")
        const [x, y, z] = ["e1", "e2", "e3"].map((tx) => tx.repeat(32))
        yield* fixtures.seedSweepTask(scope, wallets[0]!, { status: "broadcast", txid: x!, destination: "TCollectA" })
        yield* fixtures.seedSweepTask(scope, wallets[1]!, { status: "succeeded", txid: y!, destination: "TCollectB" })
        yield* fixtures.seedSweepTask(scope, wallets[2]!, { status: "pending" })
        yield* fixtures.seedSweepTask(mainSide.scope, mainSide.wallets[0]!, { status: "unknown", txid: z!, destination: "TCollectC" })
        const found = yield* ledger.sweepsAmong("nile", [y!, z!, x!, "f0".repeat(32), ""])
        expect([...found].sort((a, b) => (a.txid < b.txid ? -1 : 1))).toEqual([
          { txid: x, tenantId: scope.tenantId, from: wallets[0]!.address, to: "TCollectA" },
          { txid: y, tenantId: scope.tenantId, from: wallets[1]!.address, to: "TCollectB" }
        ])
        expect(yield* ledger.sweepsAmong("main", [z!])).toEqual([
          { txid: z, tenantId: mainSide.scope.tenantId, from: mainSide.wallets[0]!.address, to: "TCollectC" }
        ])
        expect(yield* ledger.sweepsAmong("nile", [])).toEqual([])
      }))

    test("firstBlockSince: the first stored block at or after the time", () =>
      Effect.gen(function*() {
        const ledger = yield* ScanLedger
        yield* ledger.append("nile", Option.none(), [scanned(b10), scanned(b11), scanned(b12)], tip)
        const timeOf = (number: bigint, millis = 0) => new Date(block(number).timestamp.getTime() + millis)
        expect(yield* ledger.firstBlockSince("nile", timeOf(11n))).toEqual(Option.some(11n))
        expect(yield* ledger.firstBlockSince("nile", timeOf(11n, -1))).toEqual(Option.some(11n))
        expect(yield* ledger.firstBlockSince("nile", timeOf(11n, 1))).toEqual(Option.some(12n))
        expect(yield* ledger.firstBlockSince("nile", new Date(0))).toEqual(Option.some(10n))
        expect(yield* ledger.firstBlockSince("nile", timeOf(12n, 1))).toEqual(Option.none())
        expect(yield* ledger.firstBlockSince("main", new Date(0))).toEqual(Option.none())
      }))

    test("newWallets and lastWalletId: by ID, the highest above the given one and the earliest creation among them", () =>
      Effect.gen(function*() {
        const ledger = yield* ScanLedger
        const fixtures = yield* StorageFixtures
        expect(yield* ledger.lastWalletId).toBe("0")
        expect(yield* ledger.newWallets("nile", "0")).toEqual(Option.none())
        const scope = yield* fixtures.scope("nile")
        const hour = (h: number) => new Date(Date.UTC(2026, 0, 1, h))
        // Eleven wallets, so that IDs run past 9 (compared as numbers, not text); the eleventh is the oldest.
        const nile = yield* Effect.forEach(Array.from({ length: 11 }, (_, i) => i), (i) =>
          fixtures.wallet(scope, { createdAt: i === 10 ? hour(1) : hour(10 + i) }))
        const onMain = yield* fixtures.wallet({ ...scope, network: "main" }, { createdAt: hour(0) })
        expect(yield* ledger.lastWalletId).toBe(onMain.id)
        expect(yield* ledger.newWallets("nile", "0")).toEqual(Option.some({ lastId: nile[10]!.id, firstCreatedAt: hour(1) }))
        expect(yield* ledger.newWallets("nile", nile[8]!.id)).toEqual(Option.some({ lastId: nile[10]!.id, firstCreatedAt: hour(1) }))
        expect(yield* ledger.newWallets("nile", nile[2]!.id)).toEqual(Option.some({ lastId: nile[10]!.id, firstCreatedAt: hour(1) }))
        expect(yield* ledger.newWallets("nile", nile[10]!.id)).toEqual(Option.none())
        expect(yield* ledger.newWallets("main", nile[10]!.id)).toEqual(Option.some({ lastId: onMain.id, firstCreatedAt: hour(0) }))
        expect(yield* ledger.newWallets("main", onMain.id)).toEqual(Option.none())
      }))
  })
