import { describe, expect } from "@effect/vitest"
import { Effect, Option } from "effect"
import { onFreshStorage } from "../testing/FreshStorage.js"
import { MemoryTestStorage } from "../testing/MemoryTestStorage.js"
import { replaceChain } from "./ReplacedChain.js"
import { ScanLedger } from "./ScanLedger.js"

const it = onFreshStorage(MemoryTestStorage)

const hash = (n: bigint) => n.toString(16).padStart(64, "0")
const scannedTo = (number: bigint) =>
  Effect.flatMap(ScanLedger, (ledger) =>
    ledger.append("nile", Option.none(), [{ block: { number, hash: hash(number), parentHash: hash(number - 1n), timestamp: new Date(0) }, transfers: [], ownSweeps: [], outflows: [] }], {
      head: number,
      solidified: number
    }))

describe("replaceChain", () => {
  it("begins at the lowest block when nothing was scanned", () =>
    Effect.gen(function*() {
      expect(yield* replaceChain("nile", 1_000_000n)).toBe(1_000_000n)
    }))

  it("begins at the lowest block when the old scan stayed far below it, and forgets the old position", () =>
    Effect.gen(function*() {
      yield* scannedTo(5_000n)
      expect(yield* replaceChain("nile", 1_000_000n)).toBe(1_000_000n)
      expect(yield* Effect.flatMap(ScanLedger, (ledger) => ledger.cursor("nile"))).toEqual(Option.none())
    }))

  it("begins 1000 blocks above the last scanned one when that is higher", () =>
    Effect.gen(function*() {
      yield* scannedTo(1_000_500n)
      expect(yield* replaceChain("nile", 1_000_000n)).toBe(1_001_500n)
      expect(yield* Effect.flatMap(ScanLedger, (ledger) => ledger.cursor("nile"))).toEqual(Option.none())
    }))
})
