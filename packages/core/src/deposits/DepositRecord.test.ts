import { describe, expect, it } from "@effect/vitest"
import { Schema } from "effect"
import type { TenantId, WalletId } from "../kernel/Ids.js"
import type { Deposit, DepositId, EventId } from "./Deposit.js"
import { DepositRecord, depositRecord } from "./DepositRecord.js"

const deposit: Deposit = {
  id: "9223372036854775807" as DepositId,
  eventId: "9001" as EventId,
  tenantId: "7" as TenantId,
  network: "nile",
  status: "confirmed",
  walletId: "42" as WalletId,
  customId: "user-7",
  address: "TXngH8bVadn9ZWtKBgjKQcqN1GsZ7A1jcb",
  source: "TJRabPrwbZy45sbavfcjinPJC18kjpRTv8",
  contract: "TXYZopYRdj2D9XRtbG411XZZ3kM5VkAeBf",
  // Above 2^64: the amount must reach the wire as its exact digits.
  amount: 18446744073709551617n,
  txid: "c0ffee0000000000000000000000000000000000000000000000000000000001",
  logIndex: 3,
  blockNumber: 61000000n,
  blockHash: "0000000003a2c9400000000000000000000000000000000000000000000000ff",
  blockTime: new Date("2026-11-21T10:15:00.5Z"),
  createdAt: new Date("2026-11-21T10:16:03.123Z"),
  revision: 1,
  confirmationType: "block_6",
  confirmations: 6
}

const reverted: Deposit = { ...deposit, status: "reverted", revision: 2, confirmationType: "solidified", confirmations: null, blockHash: null }

describe("depositRecord", () => {
  it("writes the schema's 24 members in the schema's order: the payload's bytes are the API's", () => {
    for (const record of [depositRecord(deposit), depositRecord(reverted)]) {
      expect(Object.keys(record)).toEqual(Object.keys(DepositRecord.fields))
      expect(JSON.stringify(Schema.encodeSync(DepositRecord)(record))).toBe(JSON.stringify(record))
    }
  })

  it("writes what the schema reads back: exact digits, microsecond times, the event type of the status", () => {
    const record = depositRecord(deposit)
    expect(Schema.decodeUnknownSync(DepositRecord)(JSON.parse(JSON.stringify(record)))).toEqual(record)
    expect(record).toMatchObject({
      id: "9223372036854775807",
      event_type: "deposit.confirmed",
      amount: "18446744073709551617",
      block_number: "61000000",
      block_time: "2026-11-21T10:15:00.500000Z",
      created_at: "2026-11-21T10:16:03.123000Z"
    })
    expect(Schema.decodeUnknownSync(DepositRecord)(depositRecord(reverted))).toMatchObject({
      event_type: "deposit.reverted",
      status: "reverted",
      confirmation_type: "solidified",
      confirmations: null,
      block_hash: null
    })
  })
})
