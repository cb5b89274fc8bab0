import { describe, expect, it } from "@effect/vitest"
import { Trc20Call } from "@collector/tron"
import { Either } from "effect"
import { fixture } from "./testing/FakeNode.js"
import { usdtTransfers as readBlock } from "./TransferLogs.js"

const { transferTopic } = Trc20Call

const usdt = "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t"
const usdtLog = { address: usdt, hex20: "a614f803b6fd780986a42c78ec9c7f77e6ded13c" }
/** The transfers of receipts of block 1 (or `block`), or the reason they were refused. */
const usdtTransfers = (entries: unknown, _contract = usdt, block = 1n) => Either.map(readBlock(entries, block, usdtLog), (read) => read.transfers)
const decode = (entries: unknown) => entries
const word = (hex: string) => hex.padStart(64, "0")
const log = (address: string, from: string, to: string, amount: string) => ({
  address,
  topics: [transferTopic, word(from), word(to)],
  data: word(amount)
})
const info = (id: string, result: string | undefined, logs: ReadonlyArray<unknown>) => ({
  id: id.repeat(64),
  blockNumber: 1,
  receipt: result === undefined ? {} : { result },
  log: logs
})
const usdtHex = "a614f803b6fd780986a42c78ec9c7f77e6ded13c"
const alice = "e5079969b8e71d3c8604a106819aef82cea0c55a"
const bob = "118f7b4382bea375ee420f1b211a4619f3ba78ad"

describe("usdtTransfers", () => {
  it("takes the Transfer logs of the recorded mainnet block", () => {
    const transfers = Either.getOrThrow(usdtTransfers(fixture("mainnet_gettransactioninfobyblocknum_84940364_partial.json"), usdt, 84940364n))
    expect(transfers.map((t) => t.amount)).toEqual([500000000n, 23111110000n, 270550000n, 20000000n])
    expect(transfers[0]).toEqual({
      txid: "f52df87da4991d1cd8333f48526b2f55375a22e2705e9eaf7edce2a12e53827b",
      logIndex: 0,
      from: "TWrCqzeJMWvfEGyGVrRPTTERkWQLSgmMoY",
      to: "TBa4Nb96tj4jUx85tcqvyWYyFi7mowHVLJ",
      amount: 500000000n,
      contract: usdt
    })
  })

  it("skips failed receipts, receipts without a result, other contracts and other events; indexes logs within their transaction", () => {
    const otherEvent = { address: usdtHex, topics: [word("01"), word(alice), word(bob)], data: word("05") }
    const infos = decode([
      info("a", "REVERT", [log(usdtHex, alice, bob, "10")]),
      info("b", undefined, [log(usdtHex, alice, bob, "11")]),
      info("c", "SUCCESS", [log("eca9bc828a3005b9a3b909f2cc5c2a54794de05f", alice, bob, "12"), otherEvent, log(usdtHex, bob, alice, "13")])
    ])
    const transfers = Either.getOrThrow(usdtTransfers(infos, usdt))
    expect(transfers.map((t) => [t.txid.slice(0, 1), t.logIndex, t.amount])).toEqual([["c", 2, 0x13n]])
  })

  it("names transactions in lower case whatever case the node used, as the txids we sign are stored", () => {
    const transfers = Either.getOrThrow(usdtTransfers(decode([info("F", "SUCCESS", [log(usdtHex, alice, bob, "10")])]), usdt))
    expect(transfers.map((t) => t.txid)).toEqual(["f".repeat(64)])
  })

  it("fails the block on a malformed USDT Transfer log rather than skipping a deposit", () => {
    const short = { ...log(usdtHex, alice, bob, "10"), data: "10" }
    expect(Either.getLeft(usdtTransfers(decode([info("d", "SUCCESS", [short])]), usdt))._tag).toBe("Some")
    const twoTopics = { ...log(usdtHex, alice, bob, "10"), topics: [transferTopic, word(alice)] }
    expect(usdtTransfers(decode([info("e", "SUCCESS", [twoTopics])]), usdt)).toEqual(
      Either.left(`transaction ${"e".repeat(64)} log 0 is a malformed USDT Transfer log`)
    )
    // Trc20Call.decodeTransferLog answers None for a four-topic (ERC-721 style) log, as for any
    // non-Transfer: from the USDT contract with the Transfer topic it still fails the block.
    const fourTopics = { ...log(usdtHex, alice, bob, "10"), topics: [transferTopic, word(alice), word(bob), word("01")] }
    expect(Either.isLeft(usdtTransfers(decode([info("f", "SUCCESS", [fourTopics])]), usdt))).toBe(true)
  })

  it("fails the block on an address topic whose upper 12 bytes are not zero (41-prefixed or dirty)", () => {
    // The shared decoder's rule, stricter than the adapter's former one, which read the low 20 bytes.
    for (const padding of ["00".repeat(11) + "41", "ff".repeat(12)]) {
      const dirty = { ...log(usdtHex, alice, bob, "10"), topics: [transferTopic, padding + alice, word(bob)] }
      expect(usdtTransfers(decode([info("a", "SUCCESS", [dirty])]), usdt)).toEqual(
        Either.left(`transaction ${"a".repeat(64)} log 0 is a malformed USDT Transfer log`)
      )
      const dirtyTo = { ...log(usdtHex, alice, bob, "10"), topics: [transferTopic, word(alice), padding + bob] }
      expect(Either.isLeft(usdtTransfers(decode([info("b", "SUCCESS", [dirtyTo])]), usdt))).toBe(true)
    }
  })

  it("matches the contract in its 41-prefixed or upper-case form and the topic in upper case", () => {
    const shouting = { address: `41${usdtHex.toUpperCase()}`, topics: [transferTopic.toUpperCase(), word(alice.toUpperCase()), word(bob)], data: word("0A") }
    const transfers = Either.getOrThrow(usdtTransfers(decode([info("c", "SUCCESS", [shouting])]), usdt))
    expect(transfers).toEqual([{
      txid: "c".repeat(64),
      logIndex: 0,
      from: "TWrCqzeJMWvfEGyGVrRPTTERkWQLSgmMoY",
      to: "TBa4Nb96tj4jUx85tcqvyWYyFi7mowHVLJ",
      amount: 10n,
      contract: usdt
    }])
  })
})

describe("usdtTransfers on the raw reply", () => {
  const read = (entries: unknown, block = 1n) => readBlock(entries, block, usdtLog)

  it("keeps amounts exact at any size: they are hex words, read with BigInt", () => {
    const entries = JSON.parse(`[
      {"id":"${"a".repeat(64)}","fee":99999999999000001,"blockNumber":1,"receipt":{"result":"SUCCESS","energy_fee":99999999999000001},
       "log":[{"address":"${usdtHex}","topics":["${transferTopic}","${word(alice)}","${word(bob)}"],"data":"${word("1" + "0".repeat(15) + "1")}"},
              {"address":"${usdtHex}","topics":["${transferTopic}","${word(bob)}","${word(alice)}"],"data":"${"f".repeat(64)}"}]}
    ]`)
    const { transfers } = Either.getOrThrow(read(entries))
    expect(transfers.map((t) => t.amount)).toEqual([2n ** 64n + 1n, 2n ** 256n - 1n])
    expect(transfers.map((t) => t.logIndex)).toEqual([0, 1])
  })

  it("refuses a blockNumber a double has rounded rather than compare it wrongly; takes one printed as digits", () => {
    // 2^53 + 1 as a bare JSON number comes out of JSON.parse as 2^53.
    const rounded = JSON.parse(`[{"id":"${"a".repeat(64)}","blockNumber":9007199254740993}]`)
    expect(read(rounded, 9007199254740993n)).toEqual(Either.left("receipt 0 has blockNumber 9007199254740992, not an exact integer"))
    expect(Either.isRight(read([{ id: "a".repeat(64), blockNumber: "9007199254740993" }], 9007199254740993n))).toBe(true)
    // Missing is 0, as java-tron leaves zeros out.
    expect(Either.isRight(read([{ id: "a".repeat(64) }], 0n))).toBe(true)
  })

  it("names a receipt of another block, and counts the receipts it read", () => {
    expect(read([{ id: "ab".repeat(32), blockNumber: 7 }], 5n)).toEqual(Either.left(`block 5 lists ${"ab".repeat(32)} of block 7`))
    expect(Either.map(read([info("a", undefined, []), info("b", undefined, [])]), (r) => r.receiptCount)).toEqual(Either.right(2))
    expect(read({ id: "a".repeat(64) })).toEqual(Either.left("the reply is not a list of receipts"))
  })

  it("checks every field it reads from a receipt carrying a USDT log, and leaves other receipts unread", () => {
    const usdtLogOnly = [log(usdtHex, alice, bob, "10")]
    // A receipt without USDT logs is not read beyond its blockNumber, however odd the rest.
    expect(Either.isRight(read([{ id: "not a txid", blockNumber: 1, receipt: 5, log: [{ address: "eca9bc828a3005b9a3b909f2cc5c2a54794de05f", topics: 1 }] }]))).toBe(true)
    expect(read([{ ...info("a", "SUCCESS", usdtLogOnly), id: "xyz" }])).toEqual(Either.left("receipt 0 has id xyz, not a transaction id"))
    expect(read([{ ...info("a", "SUCCESS", usdtLogOnly), receipt: "SUCCESS" }])).toEqual(Either.left(`transaction ${"a".repeat(64)} has a receipt that is not an object`))
    expect(read([{ ...info("a", "SUCCESS", usdtLogOnly), receipt: { result: 1 } }])).toEqual(Either.left(`transaction ${"a".repeat(64)} has receipt.result 1`))
    expect(read([info("a", "SUCCESS", [...usdtLogOnly, { address: usdtHex, topics: "x" }])])).toEqual(Either.left(`transaction ${"a".repeat(64)} has a log of an unexpected shape`))
    expect(read([{ ...info("a", "SUCCESS", []), log: "x" }])).toEqual(Either.left("receipt 0 has a log that is not a list"))
    expect(read([5])).toEqual(Either.left("receipt 0 is not an object"))
  })

  it("fails the block on a Transfer topic or amount that is not hex", () => {
    const badTopic = { ...log(usdtHex, alice, bob, "10"), topics: [transferTopic, word("zz" + alice.slice(2)), word(bob)] }
    expect(Either.isLeft(read([info("a", "SUCCESS", [badTopic])]))).toBe(true)
    const badData = { ...log(usdtHex, alice, bob, "10"), data: "g".repeat(64) }
    expect(Either.isLeft(read([info("a", "SUCCESS", [badData])]))).toBe(true)
  })
})
