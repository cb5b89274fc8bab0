import { expect, layer } from "@effect/vitest"
import { Effect, type Layer, Option } from "effect"
import type { BlockRef } from "../chain/ChainModel.js"
import type { Deposit } from "../deposits/Deposit.js"
import { depositRecord } from "../deposits/DepositRecord.js"
import { DepositRepository } from "../deposits/DepositRepository.js"
import type { Network } from "../kernel/Network.js"
import { NotificationRepository } from "../notifications/NotificationRepository.js"
import type { Booking } from "./Booking.js"
import { bookingOf, idsNeeded, logState, reversalOf } from "./BookingRules.js"
import { type ConfirmItem, DepositBook } from "./DepositBook.js"
import type { PendingTransfer } from "./PendingTransfer.js"
import { ScanLedger } from "./ScanLedger.js"
import type { TenantScope } from "../tenants/Scope.js"
import { type FixtureWallet, StorageFixtures } from "../testing/StorageFixtures.js"

type Ports = DepositBook | ScanLedger | DepositRepository | NotificationRepository | StorageFixtures

let blocksMade = 0
const hashOf = (n: number) => n.toString(16).padStart(64, "0")

const at = new Date("2026-06-01T10:00:00.000Z")

interface Sent {
  readonly wallet: FixtureWallet
  readonly scope: TenantScope
  readonly amount: bigint
  /** The same transaction again (a reorganisation moved it); a new one otherwise. */
  readonly txid?: string
}

/** Stores the next block of the network's chain (after wherever its cursor stands) with these transfers in it. */
const appendBlock = (network: Network, sent: ReadonlyArray<Sent>) =>
  Effect.gen(function*() {
    const ledger = yield* ScanLedger
    const cursor = yield* ledger.cursor(network)
    const number = Option.match(cursor, { onNone: () => 1n, onSome: (c) => c.number + 1n })
    const block: BlockRef = {
      number,
      hash: hashOf(++blocksMade),
      parentHash: Option.match(cursor, { onNone: () => hashOf(0), onSome: (c) => c.hash }),
      timestamp: new Date(at.getTime() + Number(number) * 3000)
    }
    const transfers = sent.map((s, i) => ({
      block,
      wallet: { walletId: s.wallet.id, tenantId: s.scope.tenantId, address: s.wallet.address, customId: s.wallet.customId, depositMinimum: null },
      transfer: { txid: s.txid ?? hashOf(1_000_000 + blocksMade * 100 + i), logIndex: i, from: "TSender", to: s.wallet.address, amount: s.amount, contract: "TUsdt" }
    }))
    yield* ledger.append(network, Option.map(cursor, (c) => ({ number: c.number, hash: c.hash })), [{ block, transfers, ownSweeps: [], outflows: [] }], {
      head: number,
      solidified: number
    })
    return block
  })

/** Decides the bookings of these pending logs as the core does (one new revision each where due). */
const decide = (logs: ReadonlyArray<PendingTransfer>, when: Date) =>
  Effect.gen(function*() {
    const book = yield* DepositBook
    const network = logs[0]!.network
    const stored = yield* book.depositsOf(network, logs)
    const items: Array<ConfirmItem> = logs.map((transfer) => ({ transfer, confirmation: { rule: transfer.rule, confirmations: 1 } }))
    const states = items.map((item) => logState(item.transfer, stored.find((d) => d.txid === item.transfer.txid && d.logIndex === item.transfer.logIndex)))
    const bookings: Array<Booking> = []
    for (const [i, item] of items.entries()) {
      const needed = idsNeeded(states[i]!)
      const ids = yield* book.reserveIds(needed)
      const booking = bookingOf(item, states[i]!, { deposit: ids.deposits[0]!, event: ids.events[0]! }, when)
      if (booking !== null) bookings.push(booking)
    }
    return bookings
  })

const pendingOf = (scope: TenantScope) =>
  Effect.map(Effect.flatMap(DepositBook, (book) => book.pending(scope.network)), (logs) => logs.filter((l) => l.tenantId === scope.tenantId))

const newScope = (network: Network) =>
  Effect.gen(function*() {
    const fixtures = yield* StorageFixtures
    const scope = yield* fixtures.scope(network, { confirmationRule: "block_1" })
    return { scope, wallet: yield* fixtures.wallet(scope) }
  })

/**
 * A deposit of `amount` confirmed in a new block of `main` on top of a block with nothing in it
 * (`before`, where a reorganisation of the deposit's block goes back to).
 */
const confirmedOnMain = (amount: bigint) =>
  Effect.gen(function*() {
    const { scope, wallet } = yield* newScope("main")
    const base = yield* appendBlock("main", [])
    const before = { number: base.number, hash: base.hash }
    const block = yield* appendBlock("main", [{ scope, wallet, amount }])
    const [confirm] = yield* decide(yield* pendingOf(scope), at)
    yield* Effect.flatMap(DepositBook, (book) => book.book("main", [confirm!]))
    return { scope, wallet, before, block, confirm: confirm! }
  })

/**
 * What every DepositBook must do: read the facts the core decides on, and write each decision
 * (a new revision, its event, the scope's total, the log booked) all at once, or refuse it as a
 * whole when what it was decided on has changed.
 */
export const depositBookContract = <E>(name: string, storage: Layer.Layer<Ports, E>) =>
  layer(storage)(`DepositBook contract (${name})`, (it) => {
    it.effect("pending: the unbooked logs of tenant wallets with the tenant's rule, by block, transaction and log", () =>
      Effect.gen(function*() {
        const { scope, wallet } = yield* newScope("nile")
        const first = yield* appendBlock("nile", [{ scope, wallet, amount: 1n }, { scope, wallet, amount: 2n }])
        const second = yield* appendBlock("nile", [{ scope, wallet, amount: 3n }])
        const logs = yield* pendingOf(scope)
        expect(logs.map((l) => [l.blockNumber, l.logIndex, l.amount, l.rule])).toEqual([
          [first.number, 0, 1n, "block_1"],
          [first.number, 1, 2n, "block_1"],
          [second.number, 0, 3n, "block_1"]
        ])
        expect(logs[0]).toMatchObject({ network: "nile", walletId: wallet.id, address: wallet.address, customId: wallet.customId, blockHash: first.hash })
        expect((yield* Effect.flatMap(DepositBook, (b) => b.pending("main"))).some((l) => l.tenantId === scope.tenantId)).toBe(false)
      }))

    it.effect("book: each new deposit with its event and the scope's total, the logs booked, all at once", () =>
      Effect.gen(function*() {
        const book = yield* DepositBook
        const { scope, wallet } = yield* newScope("nile")
        yield* appendBlock("nile", [{ scope, wallet, amount: 5_000_000n }, { scope, wallet, amount: 7n }])
        const bookings = yield* decide(yield* pendingOf(scope), at)
        yield* book.book("nile", bookings)
        expect(yield* pendingOf(scope)).toEqual([])
        const deposits = yield* book.depositsOf("nile", bookings.map((b) => b.log))
        expect(deposits).toEqual(bookings.map((b) => b.deposit))
        expect(yield* Effect.flatMap(DepositRepository, (r) => r.confirmedTotal(scope))).toBe(5_000_007n)
        for (const deposit of deposits) {
          expect(Option.getOrThrow(yield* Effect.flatMap(DepositRepository, (r) => r.find(scope, deposit.id)))).toEqual(deposit)
          const event = Option.getOrThrow(yield* Effect.flatMap(NotificationRepository, (r) => r.find(scope, deposit.eventId)))
          expect(event).toMatchObject({ eventType: "deposit.confirmed", status: "pending", attempts: 0, currentRound: 1, nextAttempt: at, createdAt: at })
          expect(event.payload).toBe(JSON.stringify(depositRecord(deposit)))
        }
      }))

    it.effect("book refuses the whole write when one log was booked meanwhile, and writes nothing", () =>
      Effect.gen(function*() {
        const book = yield* DepositBook
        const { scope, wallet } = yield* newScope("nile")
        yield* appendBlock("nile", [{ scope, wallet, amount: 1n }, { scope, wallet, amount: 2n }])
        const bookings = yield* decide(yield* pendingOf(scope), at)
        // Another scanner booked the first log with the same decision.
        yield* book.book("nile", [bookings[0]!])
        const again = yield* Effect.flip(book.book("nile", bookings))
        expect(again._tag).toBe("BookingConflict")
        expect((yield* pendingOf(scope)).map((l) => l.amount)).toEqual([2n])
        expect(yield* book.depositsOf("nile", [bookings[1]!.log])).toEqual([])
        expect(Option.isNone(yield* Effect.flatMap(NotificationRepository, (r) => r.find(scope, bookings[1]!.deposit.eventId)))).toBe(true)
        expect(yield* Effect.flatMap(DepositRepository, (r) => r.confirmedTotal(scope))).toBe(1n)
      }))

    it.effect("a reorganisation: the orphaned deposit is reverted with its event and total; booked again in the new block as the next revision", () =>
      Effect.gen(function*() {
        const book = yield* DepositBook
        const ledger = yield* ScanLedger
        const { before, block, confirm, scope, wallet } = yield* confirmedOnMain(9n)
        const confirmed: Deposit = confirm.deposit
        // The block is dropped: the deposit is orphaned from any `from` at or below its block, not above.
        yield* ledger.rewind("main", { number: block.number, hash: block.hash }, before)
        expect((yield* book.orphaned("main", block.number)).map((d) => d.id)).toContain(confirmed.id)
        expect((yield* book.orphaned("main", block.number + 1n)).map((d) => d.id)).not.toContain(confirmed.id)
        const [eventId] = (yield* book.reserveIds({ deposits: 0, events: 1 })).events
        const reversal = reversalOf(confirmed, eventId!, block.number, at)
        yield* book.revert("main", reversal)
        expect(yield* Effect.flatMap(DepositRepository, (r) => r.confirmedTotal(scope))).toBe(0n)
        expect(Option.getOrThrow(yield* Effect.flatMap(DepositRepository, (r) => r.find(scope, confirmed.id)))).toEqual(reversal.deposit)
        expect(Option.getOrThrow(yield* Effect.flatMap(NotificationRepository, (r) => r.find(scope, eventId!))).eventType).toBe("deposit.reverted")
        // The same reversal again is stale: the deposit is no longer at the revision it replaces.
        expect((yield* Effect.flip(book.revert("main", reversal)))._tag).toBe("BookingConflict")
        expect((yield* book.orphaned("main", block.number)).map((d) => d.id)).not.toContain(confirmed.id)
        // The transfer lands again in another block: the next revision, same deposit.
        yield* appendBlock("main", [{ scope, wallet, amount: 9n, txid: confirmed.txid }])
        const [again] = yield* decide(yield* pendingOf(scope), at)
        expect(again?._tag === "Confirm" && again.replaces).toEqual({ revision: 2 })
        yield* book.book("main", [again!])
        expect(yield* Effect.flatMap(DepositRepository, (r) => r.confirmedTotal(scope))).toBe(9n)
      }))

    it.effect("book refuses a decision on a log that has moved to another block since, even with its deposit still absent", () =>
      Effect.gen(function*() {
        const book = yield* DepositBook
        const ledger = yield* ScanLedger
        const { scope, wallet } = yield* newScope("main")
        const base = yield* appendBlock("main", [])
        const block = yield* appendBlock("main", [{ scope, wallet, amount: 4n }])
        const bookings = yield* decide(yield* pendingOf(scope), at)
        yield* ledger.rewind("main", { number: block.number, hash: block.hash }, { number: base.number, hash: base.hash })
        yield* appendBlock("main", [{ scope, wallet, amount: 4n, txid: bookings[0]!.log.txid }])
        expect((yield* Effect.flip(book.book("main", bookings)))._tag).toBe("BookingConflict")
        expect(yield* book.depositsOf("main", [bookings[0]!.log])).toEqual([])
        expect((yield* pendingOf(scope)).length).toBe(1)
      }))

    it.effect("a reversal decided on an older revision is refused, even when the deposit is orphaned again", () =>
      Effect.gen(function*() {
        const book = yield* DepositBook
        const ledger = yield* ScanLedger
        const { before, block: first, confirm, scope, wallet } = yield* confirmedOnMain(6n)
        yield* ledger.rewind("main", { number: first.number, hash: first.hash }, before)
        const reserve = Effect.map(book.reserveIds({ deposits: 0, events: 1 }), (ids) => ids.events[0]!)
        const stale = reversalOf(confirm.deposit, yield* reserve, first.number, at)
        yield* book.revert("main", reversalOf(confirm.deposit, yield* reserve, first.number, at))
        // Confirmed again in a second block, which is dropped in turn: orphaned again, at revision 3.
        const second = yield* appendBlock("main", [{ scope, wallet, amount: 6n, txid: confirm.deposit.txid }])
        const [again] = yield* decide(yield* pendingOf(scope), at)
        yield* book.book("main", [again!])
        yield* ledger.rewind("main", { number: second.number, hash: second.hash }, before)
        expect((yield* book.orphaned("main", first.number)).map((d) => [d.id, d.revision])).toContainEqual([confirm.deposit.id, 3])
        expect((yield* Effect.flip(book.revert("main", stale)))._tag).toBe("BookingConflict")
        expect(yield* Effect.flatMap(DepositRepository, (r) => r.confirmedTotal(scope))).toBe(6n)
      }))

    it.effect("reserveIds draws distinct deposit and event IDs, never the same twice", () =>
      Effect.gen(function*() {
        const book = yield* DepositBook
        const first = yield* book.reserveIds({ deposits: 2, events: 3 })
        const second = yield* book.reserveIds({ deposits: 1, events: 1 })
        expect(first.deposits.length).toBe(2)
        expect(first.events.length).toBe(3)
        expect(new Set([...first.deposits, ...second.deposits]).size).toBe(3)
        expect(new Set([...first.events, ...second.events]).size).toBe(4)
        expect(yield* book.reserveIds({ deposits: 0, events: 0 })).toEqual({ deposits: [], events: [] })
      }))
  })
