import { TronAddress } from "@collector/tron"
import { describe, expect, it } from "@effect/vitest"
import { Option } from "effect"
import { randomBytes } from "node:crypto"
import { logAddress } from "./LogAddress.js"
import { fixture } from "./testing/FakeNode.js"

describe("logAddress", () => {
  it("agrees with TronAddress.fromHex on the test vectors and on random ids, in either case", () => {
    const vectors: ReadonlyArray<string> = JSON.stringify(fixture("test-vectors.json")).match(/T[1-9A-HJ-NP-Za-km-z]{33}/g) ?? []
    expect(vectors.length).toBeGreaterThan(3)
    for (const address of vectors) {
      const hex20 = Option.getOrThrow(TronAddress.toHex(address)).slice(2)
      expect(logAddress(hex20)).toBe(address)
      expect(logAddress(hex20.toUpperCase())).toBe(address)
    }
    for (let i = 0; i < 500; i++) {
      const hex20 = randomBytes(20).toString("hex")
      expect(logAddress(hex20)).toBe(Option.getOrThrow(TronAddress.fromHex(hex20)))
    }
    expect(logAddress("a614f803b6fd780986a42c78ec9c7f77e6ded13c")).toBe("TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t")
  })

  it("answers undefined for anything that is not 40 hex digits", () => {
    for (const bad of ["", "a614f803b6fd780986a42c78ec9c7f77e6ded13", "41a614f803b6fd780986a42c78ec9c7f77e6ded13c", "g614f803b6fd780986a42c78ec9c7f77e6ded13c", "a614f803b6fd780986a42c78ec9c7f77e6ded13z", "0x14f803b6fd780986a42c78ec9c7f77e6ded13c"]) {
      expect(logAddress(bad)).toBeUndefined()
    }
  })
})
