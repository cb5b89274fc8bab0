import { describe, expect, it } from "@effect/vitest"
import { timestampMicros } from "./MemoryWalletQuery.js"

describe("MemoryWalletQuery.timestampMicros", () => {
  it("reads PostgreSQL's UTC text to the microsecond, across the start of the era and past year 9999", () => {
    expect(timestampMicros("1970-01-01T00:00:00.000001Z")).toBe(1n)
    expect(timestampMicros("1969-12-31T23:59:59.999999Z")).toBe(-1n)
    expect(timestampMicros("2026-01-01T00:00:00.123456Z")).toBe(1_767_225_600_123_456n)
    // 1 BC is followed by AD 1 (there is no year 0).
    expect(timestampMicros("0001-01-01T00:00:00.000000Z") - timestampMicros("0001-12-31T23:59:59.999999Z BC")).toBe(1n)
    expect(timestampMicros("10000-01-01T00:00:00.000000Z") - timestampMicros("9999-12-31T23:59:59.999999Z")).toBe(1n)
    expect(() => timestampMicros("2026-01-01 00:00:00+00")).toThrow()
  })
})
