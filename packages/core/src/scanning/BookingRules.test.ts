import { describe, expect, it } from "@effect/vitest"
import type { Deposit, DepositId, EventId } from "../deposits/Deposit.js"
import { depositRecord } from "../deposits/DepositRecord.js"
import type { TenantId, WalletId } from "../kernel/Ids.js"
import { roundDeadline } from "../notifications/DeliverySchedule.js"
import { bookingOf, idsNeeded, logState, reversalOf } from "./BookingRules.js"
import type { ConfirmItem } from "./DepositBook.js"
import type { PendingTransfer } from "./PendingTransfer.js"

const at = new Date("2026-06-01T10:00:00.000Z")
const later = new Date("2026-06-01T10:05:00.000Z")

const log: PendingTransfer = {
  network: "nile",
  txid: "a".repeat(64),
  logIndex: 2,
  blockNumber: 1_000n,
  blockHash: "b".repeat(64),
  blockTime: new Date("2026-06-01T09:59:57.000Z"),
  tenantId: "7" as TenantId,
  walletId: "70" as WalletId,
  customId: "user-1",
  address: "TWalletAddress",
  source: "TSourceAddress",
  contract: "TUsdtContract",
  amount: 5_000_000n,
  rule: "block_3"
}
const item: ConfirmItem = { transfer: log, confirmation: { rule: "block_3", confirmations: 3 } }

const storedDeposit = (over: Partial<Deposit>): Deposit => ({
  id: "11" as DepositId,
  eventId: "20" as EventId,
  tenantId: log.tenantId,
  network: "nile",
  status: "confirmed",
  walletId: log.walletId,
  customId: "user-1 (as first stored)",
  address: log.address,
  source: log.source,
  contract: log.contract,
  amount: log.amount,
  txid: log.txid,
  logIndex: log.logIndex,
  blockNumber: 990n,
  blockHash: "c".repeat(64),
  blockTime: new Date("2026-06-01T09:59:27.000Z"),
  createdAt: at,
  revision: 2,
  confirmationType: "block_1",
  confirmations: 1,
  ...over
})

describe("booking rules", () => {
  it("a log without a deposit is booked as revision 1, with its event and the amount added to the total", () => {
    const state = logState(log, undefined)
    expect(state._tag).toBe("New")
    expect(idsNeeded(state)).toEqual({ deposits: 1, events: 1 })
    const booking = bookingOf(item, state, { deposit: "12" as DepositId, event: "30" as EventId }, at)
    expect(booking?._tag).toBe("Confirm")
    if (booking?._tag !== "Confirm") return
    expect(booking.replaces).toBeNull()
    expect(booking.totalChange).toBe(5_000_000n)
    expect(booking.deposit).toEqual({
      id: "12", eventId: "30", tenantId: "7", network: "nile", status: "confirmed", walletId: "70", customId: "user-1",
      address: "TWalletAddress", source: "TSourceAddress", contract: "TUsdtContract", amount: 5_000_000n, txid: log.txid, logIndex: 2,
      blockNumber: 1_000n, blockHash: log.blockHash, blockTime: log.blockTime, createdAt: at, revision: 1,
      confirmationType: "block_3", confirmations: 3
    })
    expect(booking.event).toEqual({
      id: "30", tenantId: "7", network: "nile", eventType: "deposit.confirmed", deposit: { id: "12", revision: 1 },
      payload: JSON.stringify(depositRecord(booking.deposit)), dueAt: at, deadlineAt: roundDeadline(at), createdAt: at
    })
  })

  it("a reverted deposit whose log is back is confirmed again: next revision, same ID and creation, the new block", () => {
    const reverted = storedDeposit({ status: "reverted", revision: 2 })
    const state = logState(log, reverted)
    expect(state._tag).toBe("Again")
    expect(idsNeeded(state)).toEqual({ deposits: 0, events: 1 })
    const booking = bookingOf(item, state, { event: "31" as EventId }, later)
    if (booking?._tag !== "Confirm") return expect.unreachable()
    expect(booking.replaces).toEqual({ revision: 2 })
    expect(booking.totalChange).toBe(5_000_000n)
    expect(booking.deposit).toEqual({
      ...reverted, status: "confirmed", revision: 3, eventId: "31", blockNumber: 1_000n, blockHash: log.blockHash, blockTime: log.blockTime,
      confirmationType: "block_3", confirmations: 3
    })
    expect(booking.deposit.createdAt).toEqual(at)
    expect(booking.deposit.customId).toBe("user-1 (as first stored)")
    expect(booking.event.eventType).toBe("deposit.confirmed")
    expect(booking.event.createdAt).toEqual(later)
  })

  it("a deposit confirmed in this very block only marks the log booked; one confirmed in another block waits for its revert", () => {
    const here = storedDeposit({ blockHash: log.blockHash, blockNumber: log.blockNumber })
    const already = logState(log, here)
    expect(already._tag).toBe("Already")
    expect(idsNeeded(already)).toEqual({ deposits: 0, events: 0 })
    expect(bookingOf(item, already, {}, at)).toEqual({ _tag: "MarkBooked", log, deposit: here })
    const elsewhere = logState(log, storedDeposit({}))
    expect(elsewhere._tag).toBe("Wait")
    expect(bookingOf(item, elsewhere, {}, at)).toBeNull()
  })

  it("a reversal keeps the block it undoes, takes the next revision and subtracts the amount", () => {
    const confirmed = storedDeposit({})
    const reversal = reversalOf(confirmed, "40" as EventId, 900n, later)
    expect(reversal.replaces).toEqual({ revision: 2 })
    expect(reversal.from).toBe(900n)
    expect(reversal.totalChange).toBe(-5_000_000n)
    expect(reversal.deposit).toEqual({ ...confirmed, status: "reverted", revision: 3, eventId: "40" })
    expect(reversal.event).toMatchObject({ id: "40", eventType: "deposit.reverted", deposit: { id: "11", revision: 3 }, createdAt: later })
    expect(JSON.parse(reversal.event.payload)).toMatchObject({ status: "reverted", revision: 3, block_hash: "c".repeat(64), event_id: "40" })
  })
})
