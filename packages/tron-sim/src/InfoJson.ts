import { addressText, bytesText, compact } from "./NodeJson.js"
import type { SimLog, SimTransactionInfo } from "./SimTransactionInfo.js"

/**
 * A transaction info as `gettransactioninfobyid` / `gettransactioninfobyblocknum` print it
 * (compare test-fixtures/tron/mainnet_gettransactioninfobyid_*.json): zero fees and usages
 * left out, `result: "FAILED"` and a hex `resMessage` only on failure, log addresses as 20-byte
 * hex — or, with `visible`, Base58Check of the 41-prefixed address.
 */

const logJson = (log: SimLog, visible: boolean) => ({
  address: visible ? addressText("41" + log.address, true) : log.address,
  topics: log.topics,
  data: log.data
})

export const infoJson = (info: SimTransactionInfo, visible: boolean) => {
  const failed = info.contractRet !== "SUCCESS"
  return compact({
    id: info.id,
    fee: info.fee,
    blockNumber: info.blockNumber,
    blockTimeStamp: info.blockTimeStamp,
    contractResult: info.contractResult,
    contract_address: info.contractAddress === undefined ? undefined : addressText(info.contractAddress, visible),
    receipt: compact({
      energy_usage: info.receipt.energyUsage,
      energy_fee: info.receipt.energyFee,
      energy_usage_total: info.receipt.energyUsageTotal,
      net_usage: info.receipt.netUsage,
      net_fee: info.receipt.netFee,
      result: info.receipt.result,
      energy_penalty_total: info.receipt.energyPenaltyTotal
    }),
    log: info.logs.map((log) => logJson(log, visible)),
    result: failed ? "FAILED" : undefined,
    resMessage: failed && info.resMessage !== undefined ? bytesText(info.resMessage, visible) : undefined
  })
}
