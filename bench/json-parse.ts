/**
 * What the lossless JSON parsing of node and provider replies costs (core's `LosslessJson.parse`,
 * the `lossless-json` library, with the node's number policy and with the energy providers'),
 * beside plain `JSON.parse` of the same text in the same run. Inputs are the real captures under
 * `test-fixtures/`; the full block and the receipts are mainnet-shaped (300 transactions, as in
 * bench/chain.ts), made by repeating the captured ones. Figures, and those of the hand-written
 * scanners the library replaced: docs/benchmarks.md. Run with `npx tsx bench/json-parse.ts`
 * (BENCH_MS: milliseconds per timed batch, default 100).
 */
import { Kernel } from "@collector/core"
import { readFileSync } from "node:fs"
import { cpus, totalmem } from "node:os"

const parseLosslessJson = (text: string) => Kernel.LosslessJson.parse(text, "unsafeIntegersAsText")
const parseRawJson = (text: string) => Kernel.LosslessJson.parse(text, "allAsText")

const batchMs = Number(process.env.BENCH_MS ?? 100)

const fixture = (path: string) => readFileSync(new URL(`../test-fixtures/${path}`, import.meta.url), "utf8")

// ---------------------------------------------------------------------------------------------
// Inputs

const block = JSON.parse(fixture("tron/mainnet_getblockbynum_71723395_abridged.json")) as {
  readonly blockID: string
  readonly block_header: unknown
  readonly transactions: ReadonlyArray<unknown>
}
const receipts = JSON.parse(fixture("tron/mainnet_gettransactioninfobyblocknum_84940364_partial.json")) as ReadonlyArray<unknown>
const repeated = <A>(items: ReadonlyArray<A>, count: number) => Array.from({ length: count }, (_, i) => items[i % items.length]!)

/** Replies as a node prints them: one line, no spaces. */
const nodeInputs: ReadonlyArray<readonly [string, string]> = [
  // What the adapter asks for every block, and for the head and solidified block every pass.
  ["block header (getblock, detail false)", JSON.stringify({ blockID: block.blockID, block_header: block.block_header })],
  ["account (getaccount)", JSON.stringify(JSON.parse(fixture("tron/mainnet_getaccount_TZ4UXDV5_visible.response.json")))],
  // Never parsed losslessly by the adapter (detail false; receipts use JSON.parse): the scale.
  ["full block, 300 transactions", JSON.stringify({ ...block, transactions: repeated(block.transactions, 300) })],
  ["receipts, 300 (gettransactioninfobyblocknum)", JSON.stringify(repeated(receipts, 300))]
]
const providerInputs: ReadonlyArray<readonly [string, string]> = [
  ["CatFee order detail", fixture("energy/catfee/order-detail.reclaimed.json")],
  ["CatFee create order", fixture("energy/catfee/create-order.response.json")]
]

// ---------------------------------------------------------------------------------------------
// Timing

/** Microseconds per call: the median of 9 batches of at least `batchMs`, after 3 untimed ones. */
const microsPerCall = (parseText: (text: string) => unknown, text: string): number => {
  let calls = 1
  const batch = () => {
    const start = process.hrtime.bigint()
    for (let i = 0; i < calls; i++) parseText(text)
    return Number(process.hrtime.bigint() - start) / 1e3
  }
  while (batch() < batchMs * 1e3) calls *= 2
  for (let i = 0; i < 3; i++) batch()
  const runs = Array.from({ length: 9 }, () => batch() / calls).sort((a, b) => a - b)
  return runs[4]!
}

const row = (cells: ReadonlyArray<string>) => console.log(`| ${cells.join(" | ")} |`)
const us = (value: number) => value < 10 ? value.toFixed(2) : value < 100 ? value.toFixed(1) : value.toFixed(0)

const table = (title: string, inputs: ReadonlyArray<readonly [string, string]>, lossless: (text: string) => unknown) => {
  console.log(`\n${title} (µs per reply, median of 9 batches)\n`)
  row(["reply", "bytes", "JSON.parse", "lossless", "lossless / JSON.parse"])
  row(["---", "---:", "---:", "---:", "---:"])
  for (const [name, text] of inputs) {
    const plain = microsPerCall(JSON.parse, text)
    const exact = microsPerCall(lossless, text)
    row([name, String(text.length), us(plain), us(exact), `${(exact / plain).toFixed(2)}x`])
  }
}

table("tron-node, unsafeIntegersAsText: safe integers as numbers, longer ones as digit strings", nodeInputs, parseLosslessJson)
table("energy, allAsText: every number as its literal text", providerInputs, parseRawJson)
console.log(`\nmachine: ${cpus().length} x ${cpus()[0]?.model ?? "cpu"}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, node ${process.version}`)
