import { createHash } from "node:crypto"
import { describe, expect, it } from "@effect/vitest"
import { Option, Redacted } from "effect"
import { MasterKey } from "./MasterKey.js"
import { MasterKeyring } from "./MasterKeyring.js"

describe("MasterKey", () => {
  it("identifies a key by the first 16 hex chars of its SHA-256", () => {
    const bytes = new Uint8Array(32).fill(7)
    const key = MasterKey.unsafeMake(bytes)
    expect(key.id).toBe(createHash("sha256").update(bytes).digest("hex").slice(0, 16))
    expect(key.id).toMatch(/^[0-9a-f]{16}$/)
    expect(Redacted.value(key.bytes)).toEqual(bytes)
  })

  it("never prints its bytes", () => {
    const key = MasterKey.unsafeMake(new Uint8Array(32).fill(0xab))
    expect(String(key.bytes)).not.toContain("171")
    expect(JSON.stringify(key)).not.toContain("171")
  })

  it("refuses anything but 32 bytes", () => {
    expect(() => MasterKey.unsafeMake(new Uint8Array(31))).toThrow(/exactly 32 bytes/)
    expect(() => MasterKey.unsafeMake(new Uint8Array(33))).toThrow(/exactly 32 bytes/)
  })
})

describe("MasterKeyring", () => {
  it("finds current and previous keys by id and drops duplicates of the current key", () => {
    const current = MasterKey.unsafeMake(new Uint8Array(32).fill(1))
    const old = MasterKey.unsafeMake(new Uint8Array(32).fill(2))
    const ring = MasterKeyring.make({ current, previous: [old, current, old] })
    expect(ring.previous.map((k) => k.id)).toEqual([old.id])
    expect(Option.getOrThrow(ring.find(current.id))).toBe(current)
    expect(Option.getOrThrow(ring.find(old.id))).toBe(old)
    expect(Option.isNone(ring.find("0123456789abcdef"))).toBe(true)
  })
})
