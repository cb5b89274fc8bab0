import { readFileSync } from "node:fs"
import { NodeTransaction } from "@collector/tron"
import { describe, expect, it } from "@effect/vitest"
import { Effect, Either, TestClock } from "effect"
import { defaultSimConfig } from "./SimConfig.js"
import { start } from "./SimHttp.js"
import { fromRawData, signedHex } from "./SimTransaction.js"
import { startSimNode } from "./testing/SimNode.js"
import { sign, usdtTransfer, wallet } from "./testing/SimWallet.js"

const service = wallet(1)
const other = wallet(2)

const fixture = (name: string): any =>
  JSON.parse(readFileSync(new URL(`../../../test-fixtures/tron/${name}`, import.meta.url), "utf8"))

/** POSTs JSON and returns the status and the parsed body (or the text, when it is not JSON). */
const post = (url: string, body: unknown = {}) =>
  Effect.promise(async () => {
    const response = await fetch(url, { method: "POST", body: JSON.stringify(body), headers: { "content-type": "application/json" } })
    const text = await response.text()
    try {
      return { status: response.status, body: JSON.parse(text) }
    } catch {
      return { status: response.status, body: text as any }
    }
  })

/** Every key path of a JSON value, to compare shapes with the recorded replies. */
const shape = (value: unknown, prefix = ""): Array<string> =>
  typeof value === "object" && value !== null && !Array.isArray(value)
    ? Object.entries(value).flatMap(([key, inner]) => [prefix + key, ...shape(inner, `${prefix}${key}.`)]).sort()
    : []

describe("SimHttp", () => {
  it.scoped("refuses to start as mainnet", () =>
    Effect.gen(function*() {
      const error = yield* start({ chain: defaultSimConfig("main") }).pipe(Effect.flip)
      expect(error._tag).toBe("MainnetRefused")
    }))

  it.scoped("produces a block every interval of the clock", () =>
    Effect.gen(function*() {
      const sim = yield* start({ chain: defaultSimConfig("nile", { blockIntervalMs: 3000 }) }).pipe(Effect.orDie)
      yield* TestClock.adjust("9 seconds")
      expect((yield* sim.chain.state).blocks.length).toBe(4)
    }))

  it.scopedLive("prints receipts with the fields and shapes java-tron prints", () =>
    Effect.gen(function*() {
      const sim = yield* startSimNode({ genesisAccounts: [{ address: service.address, trx: 100_000_000n, usdt: 10n }] })
      const send = (feeLimit: bigint) =>
        Effect.gen(function*() {
          const tx = sign(yield* usdtTransfer(sim.chain, service, other.address, 1n, feeLimit), service)
          const reply = yield* post(`${sim.url}/wallet/broadcasthex`, { transaction: signedHex(tx) })
          expect(reply.body).toMatchObject({ result: true, code: "SUCCESS", txid: tx.txid })
          return tx.txid
        })
      // The first one takes the free bandwidth, the second burns for it.
      const outOfEnergy = yield* send(1_000_000n)
      yield* sim.chain.mine()
      const ok = yield* send(50_000_000n)
      yield* sim.chain.mine()
      const okInfo = (yield* post(`${sim.url}/wallet/gettransactioninfobyid`, { value: ok })).body
      expect(shape(okInfo)).toEqual(shape({
        ...fixture("mainnet_gettransactioninfobyid_usdt_transfer_b69c51db.json"),
        receipt: { energy_fee: 1, energy_usage_total: 1, net_fee: 1, result: "SUCCESS", energy_penalty_total: 1 }
      }))
      expect(okInfo.log[0].address).toBe("eca9bc828a3005b9a3b909f2cc5c2a54794de05f")
      const oeInfo = (yield* post(`${sim.url}/wallet/gettransactioninfobyid`, { value: outOfEnergy })).body
      expect(shape(oeInfo)).toEqual(shape(fixture("mainnet_gettransactioninfobyid_usdt_out_of_energy_e63a324a.json")))
      expect(oeInfo).toMatchObject({ result: "FAILED", receipt: { result: "OUT_OF_ENERGY", energy_fee: 1_000_000 } })
      expect(Buffer.from(oeInfo.resMessage, "hex").toString()).toContain("Not enough energy")
      const block = (yield* post(`${sim.url}/wallet/getblock`, { id_or_num: String(okInfo.blockNumber), detail: true })).body
      expect(block.transactions).toEqual([expect.objectContaining({ ret: [{ contractRet: "SUCCESS" }], txID: ok })])
      expect((yield* post(`${sim.url}/wallet/gettransactioninfobyblocknum`, { num: okInfo.blockNumber })).body).toEqual([okInfo])
    }))

  it.scopedLive("builds transactions tronweb would accept, and answers errors as java-tron does", () =>
    Effect.gen(function*() {
      const sim = yield* startSimNode()
      const request = fixture("shasta_triggersmartcontract_trc20_transfer.request.json")
      const nile = { ...request, owner_address: service.address, contract_address: "TXYZopYRdj2D9XRtbG411XZZ3kM5VkAeBf" }
      const built = (yield* post(`${sim.url}/wallet/triggersmartcontract`, nile)).body
      expect(shape(built)).toEqual(shape(fixture("shasta_triggersmartcontract_trc20_transfer.response.json")))
      expect(Either.isRight(NodeTransaction.verify(built.transaction))).toBe(true)
      expect(built.transaction.raw_data.contract[0].parameter.value.owner_address).toBe(service.address)
      // broadcasttransaction prints its Return the protobuf way: defaults left out (text, as `visible` asked).
      const signed = sign(Either.getOrThrow(fromRawData(built.transaction.raw_data, [])), service)
      const refused = (yield* post(`${sim.url}/wallet/broadcasttransaction`, { ...built.transaction, signature: signed.signatures })).body
      expect(refused).toEqual({
        code: "CONTRACT_VALIDATE_ERROR",
        message: `Contract validate error : account [${service.address}] does not exist`,
        txid: built.transaction.txID
      })
      const { contract_address: _, ...withoutContract } = request
      expect((yield* post(`${sim.url}/wallet/triggersmartcontract`, withoutContract)).body).toEqual(
        fixture("shasta_triggersmartcontract_error_no_contract_address.response.json")
      )
      expect((yield* post(`${sim.url}/wallet/broadcasthex`, { transaction: "0a05ff" })).body.Error).toMatch(
        /^class com\.google\.protobuf\.InvalidProtocolBufferException : /
      )
      expect((yield* post(`${sim.url}/wallet/gettransactioninfobyid`, { value: "ab".repeat(32) })).body).toEqual({})
      expect((yield* post(`${sim.url}/walletsolidity/getaccount`, { address: other.address, visible: true })).body).toEqual({})
      expect((yield* post(`${sim.url}/wallet/getblock`, { id_or_num: "99999999" })).body).toEqual({})
      expect((yield* post(`${sim.url}/walletsolidity/getaccountresource`, { address: other.address, visible: true })).status).toBe(404)
      yield* sim.chain.setEstimateEnergy(false)
      const estimate = (yield* post(`${sim.url}/wallet/estimateenergy`, nile)).body
      // The request asked for `visible`: the message is text, not hex.
      expect(estimate).toEqual({ result: { code: "CONTRACT_VALIDATE_ERROR", message: "this node does not support estimate energy" } })
    }))

  it.scopedLive("drives the network through /sim/*", () =>
    Effect.gen(function*() {
      const sim = yield* startSimNode()
      expect((yield* post(`${sim.url}/sim/mint`, { to: other.address, amount: "5000000" })).body).toMatchObject({ ok: true })
      expect((yield* post(`${sim.url}/sim/activate`, { address: service.address, trx: 2_000_000 })).body).toMatchObject({ ok: true })
      const mined = (yield* post(`${sim.url}/sim/mine`, { blocks: 2 })).body
      expect(mined.blocks.map((b: any) => b.transactions)).toEqual([2, 0])
      const transfer = yield* post(`${sim.url}/sim/transfer`, { token: "USDT", from: other.address, to: service.address, amount: 1 })
      expect(transfer.body).toMatchObject({ ok: true })
      expect((yield* post(`${sim.url}/sim/transfer`, { from: service.address, to: other.address, amount: 2 })).status).toBe(400)
      expect((yield* post(`${sim.url}/sim/reorg`, { depth: 50 })).body.error).toMatch(/reorg depth/)
      expect((yield* post(`${sim.url}/sim/energy-price`, { sun: 210 })).body).toEqual({ ok: true })
      const state = (yield* post(`${sim.url}/sim/state`)).body
      expect(state).toMatchObject({ network: "nile", energyPrice: 210, pending: 1, head: { number: 1_000_002 } })
      const account = (yield* post(`${sim.url}/wallet/getaccount`, { address: service.address, visible: true })).body
      expect(account).toMatchObject({ address: service.address, balance: 2_000_000 })
    }))

  it.scopedLive("holds requests during a timeout outage", () =>
    Effect.gen(function*() {
      const sim = yield* startSimNode()
      yield* post(`${sim.url}/sim/fail`, { mode: "timeout", ms: 300 })
      const started = Date.now()
      const reply = yield* post(`${sim.url}/wallet/getnowblock`)
      expect(Date.now() - started).toBeGreaterThanOrEqual(250)
      expect(reply.body.block_header.raw_data.number).toBe(1_000_000)
    }))
})
