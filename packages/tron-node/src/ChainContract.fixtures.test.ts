import type { Chain } from "@collector/core"
import { Effect } from "effect"
import { chainContractSuite } from "./testing/ChainContractSuite.js"
import { fixture, fixtureText, makeFakeNode, renumberedHeader } from "./testing/FakeNode.js"
import { chainWith, useFakeNodeServer } from "./testing/TestChain.js"

/**
 * The Chain contract against recorded java-tron replies served by msw (test-fixtures/tron, copies
 * of /work/shared/fixtures/tron; sources in test-fixtures/tron/README.md). The replies come from
 * several recordings (Nile headers, mainnet receipts and account), so this backend cannot mine or
 * take a transfer: those cases are skipped here and run against the simulator.
 */

const server = useFakeNodeServer()

const usdt = "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t"
const blockNumber = 84940364n
const recorded: ReadonlyArray<any> = fixture("mainnet_gettransactioninfobyblocknum_84940364_partial.json")
const byPrefix = (prefix: string) => recorded.find((info) => info.id.startsWith(prefix))!

/**
 * Three receipts derived from the recorded ones, for what the recorded part of the block lacks.
 * Each takes a real receipt and changes one thing, under an id of its own.
 */
const derivedId = (n: number) => `d${n}`.padEnd(64, "0")
const severalLogs = { ...byPrefix("f52df87d"), id: derivedId(1), log: [byPrefix("f52df87d").log[0], byPrefix("e3249346").log[0]] }
// The same Transfer event emitted by another TRC20 contract (the Nile test token's address).
const otherToken = { ...byPrefix("fa59d11e"), id: derivedId(2), log: [{ ...byPrefix("fa59d11e").log[0], address: "eca9bc828a3005b9a3b909f2cc5c2a54794de05f" }] }
const failed = { ...byPrefix("90e42a06"), id: derivedId(3), result: "FAILED", receipt: { ...byPrefix("90e42a06").receipt, result: "REVERT" } }
const blockReceipts = [...recorded, severalLogs, otherToken, failed]

const transfer = (txid: string, logIndex: number, from: string, to: string, amount: bigint): Chain.UsdtTransfer => ({ txid, logIndex, from, to, amount, contract: usdt })
const f52 = ["TWrCqzeJMWvfEGyGVrRPTTERkWQLSgmMoY", "TBa4Nb96tj4jUx85tcqvyWYyFi7mowHVLJ", 500000000n] as const
const e32 = ["TUsiiA8jqAEagjV78T1NvjQjLbME5pWCMA", "TQMXevvCisESgK479N4mG8TTkps1LCNiyb", 23111110000n] as const

const header = renumberedHeader(blockNumber)
const receiptsById: Record<string, string> = {
  b69c51db8f9d974e6a38c76852c8ce1adcb682dbacb25ad8ad4f6876121fe9dc: fixtureText("mainnet_gettransactioninfobyid_usdt_transfer_b69c51db.json")
}

chainContractSuite({
  name: "msw-served java-tron fixtures",
  capabilities: ["severalLogsInOneTx", "otherTokenLog", "failedReceipt"],
  backend: Effect.gen(function*() {
    const node = makeFakeNode(server)
    node.on("/wallet/getblock", (body: { id_or_num?: string }) =>
      body.id_or_num === undefined
        ? fixtureText("nile_getnowblock_66987627.header.json")
        : body.id_or_num === blockNumber.toString()
        ? header
        : {})
    node.on("/walletsolidity/getblock", fixtureText("nile_getblockbynum_66987565.header.json"))
    node.on("/wallet/gettransactioninfobyblocknum", (body: { num: number }) => (BigInt(body.num) === blockNumber ? blockReceipts : []))
    node.on("/walletsolidity/getaccount", (body: { address: string }) =>
      body.address === "TZ4UXDV5ZhNW7fb2AMSbgfAEZ7hWsnYS2g" ? fixtureText("mainnet_getaccount_TZ4UXDV5_visible.response.json") : {})
    node.on("/wallet/getaccountresource", (body: { address: string }) =>
      body.address === "TZ4UXDV5ZhNW7fb2AMSbgfAEZ7hWsnYS2g"
        ? fixtureText("mainnet_getaccountresource_TZ4UXDV5.response.json")
        // What java-tron answers for an address it does not know: only the network totals.
        : { freeNetLimit: 600, TotalNetLimit: 43200000000, TotalNetWeight: 26856723239 })
    node.on("/walletsolidity/triggerconstantcontract", (body: { owner_address: string }) =>
      body.owner_address === "TZ4UXDV5ZhNW7fb2AMSbgfAEZ7hWsnYS2g"
        ? fixtureText("mainnet_triggerconstantcontract_usdt_balanceOf_2022.response.json")
        : { result: { result: true }, energy_used: 935, constant_result: ["0".repeat(64)], transaction: { ret: [{}] } })
    node.on("/walletsolidity/gettransactioninfobyid", (body: { value: string }) => receiptsById[body.value] ?? {})
    node.on("/wallet/getchainparameters", fixtureText("mainnet_getchainparameters_2023-09.json"))
    node.on("/wallet/estimateenergy", fixtureText("shasta_createtransaction_error_balance.response.json"))
    node.on("/wallet/broadcasthex", {
      Error: "class com.google.protobuf.InvalidProtocolBufferException : While parsing a protocol message, the input ended unexpectedly"
    })
    const chain = yield* chainWith("main")
    const solidifiedBlock = {
      number: 66987565n,
      hash: "0000000003fe262d52bfa4b2814f816fd2e57af5b98a33d60d8630a03a908e0e",
      parentHash: "0000000003fe262c85cd6b02033f4c3e5c1efa35de256a17bd906dc61fb1aeed",
      timestamp: new Date(1777445121000)
    }
    return {
      chain,
      facts: {
        head: {
          number: 66987627n,
          hash: "0000000003fe266bf6b6d392f654dc2e5011601546ed04623d9fcc4e9d439a25",
          parentHash: "0000000003fe266a65d5194c947f6f7a059d4646c8e9a5293226bc7fdcfc775e",
          timestamp: new Date(1777445307000)
        },
        solidified: solidifiedBlock,
        block: {
          ref: {
            number: blockNumber,
            hash: header.blockID,
            parentHash: header.block_header.raw_data.parentHash,
            timestamp: new Date(1745825274000)
          },
          // The two plain TRX transactions carry no logs; all four recorded USDT transfers succeeded.
          transfers: [
            transfer(byPrefix("f52df87d").id, 0, ...f52),
            transfer(byPrefix("e3249346").id, 0, ...e32),
            transfer(byPrefix("fa59d11e").id, 0, "TY2p6ZaZvc1vbniAUndjCwDsBSD7HngE2h", "TJwzFM5gyU15uqWNeqGfyX7jEdvabNph7t", 270550000n),
            transfer(byPrefix("90e42a06").id, 0, "TXFQoyP3ZnsbygNzeyfcJLrUveX5jp7vzQ", "TD7kfvnJnXYkxEgcPgPzmxXVMqACJP1Tja", 20000000n),
            transfer(severalLogs.id, 0, ...f52),
            transfer(severalLogs.id, 1, ...e32)
          ],
          severalLogsTxid: severalLogs.id,
          otherTokenTxid: otherToken.id,
          failedTxid: failed.id
        },
        missingBlock: 999_999_999n,
        account: {
          address: "TZ4UXDV5ZhNW7fb2AMSbgfAEZ7hWsnYS2g",
          activated: true,
          trx: 4459000n,
          usdt: 69052336071n,
          energyLimit: 9n,
          energyUsed: 0n,
          freeBandwidthLimit: 600n,
          freeBandwidthUsed: 0n,
          stakedBandwidthLimit: 0n,
          stakedBandwidthUsed: 0n,
          atBlock: solidifiedBlock.number
        },
        unknownAccount: "TMVQGm1qAQYVdetCeGRRkTWYYrLXuHK2HC",
        receipt: {
          txid: "b69c51db8f9d974e6a38c76852c8ce1adcb682dbacb25ad8ad4f6876121fe9dc",
          blockNumber: 66861993n,
          blockTime: new Date(1731235554000),
          result: "SUCCESS",
          fee: 345000n,
          energyFee: 0n,
          energyUsage: 64285n,
          bandwidthFee: 345000n,
          bandwidthUsage: 0n
        },
        unknownTxid: "ff".repeat(32),
        parameters: { energyFee: 420n, bandwidthFee: 1000n, freeBandwidthPerDay: 600n, activationFee: 1_100_000n },
        refusedEstimate: {
          transfer: { from: "TZ4UXDV5ZhNW7fb2AMSbgfAEZ7hWsnYS2g", to: "TWrCqzeJMWvfEGyGVrRPTTERkWQLSgmMoY", amount: 1n },
          reason: "/wallet/estimateenergy: ContractValidateException: Validate TransferContract error, balance is not sufficient."
        }
      }
    }
  })
})
