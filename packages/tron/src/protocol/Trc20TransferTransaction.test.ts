import { describe, expect, it } from "@effect/vitest"
import { Either, Option } from "effect"
import { readFileSync } from "node:fs"
import * as TronAddress from "../TronAddress.js"
import * as TransactionRaw from "./TransactionRaw.js"
import * as Trc20Call from "./Trc20Call.js"
import * as Trc20TransferTransaction from "./Trc20TransferTransaction.js"

const fixture = (name: string) =>
  JSON.parse(readFileSync(new URL(`../../../../test-fixtures/tron/${name}`, import.meta.url), "utf8")).transaction

const base58 = (address: string) => address.startsWith("41") ? Option.getOrThrow(TronAddress.fromHex(address)) : address

/** The request a node answered with `tx`, read back from the fields the node printed. */
const requestOf = (tx: any): Trc20TransferTransaction.TransferRequest => {
  const value = tx.raw_data.contract[0].parameter.value
  const call = Option.getOrThrow(Trc20Call.decodeTransfer(value.data))
  return {
    owner: base58(value.owner_address),
    contract: base58(value.contract_address),
    to: call.to,
    amount: call.amount,
    feeLimit: BigInt(tx.raw_data.fee_limit),
    refBlock: { ref_block_bytes: tx.raw_data.ref_block_bytes, ref_block_hash: tx.raw_data.ref_block_hash },
    expiration: BigInt(tx.raw_data.expiration),
    timestamp: BigInt(tx.raw_data.timestamp)
  }
}

describe("Trc20TransferTransaction", () => {
  it.each([
    ["nile triggersmartcontract (hex addresses)", "nile_triggersmartcontract_transfer.response.json"],
    ["shasta triggersmartcontract (visible)", "shasta_triggersmartcontract_trc20_transfer.response.json"]
  ])("builds the bytes and txID a node built for the same transfer: %s", (_, name) => {
    const tx = fixture(name)
    const built = Either.getOrThrow(Trc20TransferTransaction.build(requestOf(tx)))
    expect(built.rawDataHex).toBe(tx.raw_data_hex)
    expect(built.txid).toBe(tx.txID)
  })

  it("refuses what would not be a valid transfer, naming the field", () => {
    const request = requestOf(fixture("nile_triggersmartcontract_transfer.response.json"))
    const reason = (change: Partial<Trc20TransferTransaction.TransferRequest>) =>
      Either.match(Trc20TransferTransaction.build({ ...request, ...change }), { onLeft: (e) => e.reason, onRight: () => "built" })
    expect(reason({ owner: "41dd791d6b49e190062d650e6a23c575510d35f2f9" })).toContain("owner must be a Base58Check TRON address")
    expect(reason({ to: "TNotAnAddress" })).toContain("recipient must be a Base58Check TRON address")
    expect(reason({ contract: "" })).toContain("contract must be a Base58Check TRON address")
    expect(reason({ amount: -1n })).toContain("transfer amount must be a uint256")
    expect(reason({ amount: 2n ** 256n })).toContain("transfer amount must be a uint256")
    expect(reason({ feeLimit: 0n })).toBe("fee limit must be a positive int64, got 0")
    expect(reason({ expiration: 2n ** 63n })).toContain("expiration must be a positive int64")
    expect(reason({ timestamp: -1n })).toBe("timestamp must be a non-negative int64, got -1")
    expect(reason({ refBlock: { ref_block_bytes: "28c", ref_block_hash: request.refBlock.ref_block_hash } })).toContain("ref_block_bytes")
    expect(reason({ refBlock: { ref_block_bytes: "28c3", ref_block_hash: "ce6d3402" } })).toContain("ref_block_hash")
    expect(reason({})).toBe("built")
  })

  it("leaves a zero timestamp out, as a node prints it", () => {
    const request = requestOf(fixture("nile_triggersmartcontract_transfer.response.json"))
    const built = Either.getOrThrow(Trc20TransferTransaction.build({ ...request, timestamp: 0n }))
    const raw = Either.getOrThrow(TransactionRaw.decodeRawDataHex(built.rawDataHex))
    expect(raw.timestamp).toBeUndefined()
    expect(raw.expiration).toBe(Number(request.expiration))
  })
})
