import type { BlockTransfers, UsdtTransfer } from "./ChainModel.js"

const transferKey = (t: UsdtTransfer) => `${t.txid}:${t.logIndex} ${t.from} → ${t.to} ${t.amount} (${t.contract})`

/**
 * Whether two nodes' readings of one block agree: the same block (hash and parent) and the same
 * USDT transfers, log by log. Null when they agree, otherwise what differs first, for the
 * operator. A node serving another fork differs in the hash; a node that lies about receipts of
 * the same block differs in the transfers.
 */
export const blockDisagreement = (a: BlockTransfers, b: BlockTransfers): string | null => {
  if (a.block.hash !== b.block.hash) return `block hash ${a.block.hash} against ${b.block.hash}`
  if (a.block.parentHash !== b.block.parentHash) return `parent hash ${a.block.parentHash} against ${b.block.parentHash}`
  const first = a.transfers.map(transferKey)
  const second = b.transfers.map(transferKey)
  if (first.length !== second.length) return `${first.length} USDT transfers against ${second.length}`
  const at = first.findIndex((key, i) => key !== second[i])
  return at === -1 ? null : `transfer ${first[at]} against ${second[at]}`
}
