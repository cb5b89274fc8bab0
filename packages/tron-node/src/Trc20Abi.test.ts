import { describe, expect, it } from "@effect/vitest"
import { Option } from "effect"
import { fixture } from "./testing/FakeNode"
import { addressFromWord, addressWord, decodeUint256, transferParameter, uint256Word } from "./Trc20Abi"

describe("Trc20Abi", () => {
  it("encodes transfer(to, amount) as the node's recorded parameter", () => {
    const request = fixture("shasta_triggersmartcontract_trc20_transfer.request.json")
    expect(transferParameter("TYge3Gid6vVaQvnPVRJ6SVwzC64cw2eBkN", 1_000_000n)).toEqual(Option.some(request.parameter))
  })

  it("puts the 20-byte account id in an address word, without the 41 prefix", () => {
    const balanceOf = fixture("nile_triggerconstantcontract_balanceOf.response.json").transaction.raw_data.contract[0].parameter.value
    expect(Option.map(addressWord("TWAFRfZFmhVQZjxM3De7Mp5UZ9sLqWqpHp"), (word) => `70a08231${word}`)).toEqual(Option.some(balanceOf.data))
    expect(addressWord("not an address")).toEqual(Option.none())
  })

  it("reads address topics and uint256 words", () => {
    expect(addressFromWord("000000000000000000000000e5079969b8e71d3c8604a106819aef82cea0c55a")).toEqual(Option.some("TWrCqzeJMWvfEGyGVrRPTTERkWQLSgmMoY"))
    expect(addressFromWord("e5079969b8e71d3c8604a106819aef82cea0c55a")).toEqual(Option.none())
    expect(decodeUint256("0000000000000000000000000000000000000000000000000000000561878d70")).toEqual(Option.some(23111110000n))
    expect(decodeUint256("ff".repeat(32))).toEqual(Option.some((1n << 256n) - 1n))
    expect(decodeUint256("0x00")).toEqual(Option.none())
  })

  it("refuses amounts outside uint256 instead of wrapping them", () => {
    expect(uint256Word(-1n)).toEqual(Option.none())
    expect(uint256Word(1n << 256n)).toEqual(Option.none())
    expect(uint256Word(0n)).toEqual(Option.some("0".repeat(64)))
  })
})
