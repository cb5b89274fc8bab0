import { NodeTransaction, TransactionRaw } from "@collector/tron"
import { Either } from "effect"
import { addressText, compact } from "./NodeJson.js"
import type { IncludedTransaction, SimBlock } from "./SimBlock.js"
import type { SimTransaction } from "./SimTransaction.js"

/**
 * Blocks and transactions as `getblock`, `getnowblock`, `getblockbynum` and
 * `gettransactionbyid` print them.
 */

/** raw_data as JSON in the requested address form; the bytes were decoded once, so this cannot fail. */
const rawJson = (tx: SimTransaction, visible: boolean): TransactionRaw.RawData =>
  visible ? Either.getOrThrow(TransactionRaw.decodeRawDataHex(tx.rawDataHex, { visible: true })) : tx.raw

/** A transaction inside a block (or from gettransactionbyid): with its outcome in `ret`. */
export const transactionJson = (included: Pick<IncludedTransaction, "tx" | "info">, visible: boolean) => ({
  ret: [{ contractRet: included.info.contractRet }],
  signature: included.tx.signatures,
  txID: included.tx.txid,
  raw_data: rawJson(included.tx, visible),
  raw_data_hex: included.tx.rawDataHex
})

/** An unsigned transaction as builders return it (`visible` included, as java-tron adds it). */
export const builtTransactionJson = (raw: TransactionRaw.RawData, visible: boolean) => {
  const built = Either.getOrThrow(NodeTransaction.fromRawData(raw, { visible }))
  return { visible, txID: built.txID, raw_data: built.raw_data, raw_data_hex: built.raw_data_hex }
}

/** A signed transaction as `broadcasthex` echoes it back (printed with `visible`). */
export const signedTransactionJson = (tx: SimTransaction) => ({
  signature: tx.signatures,
  txID: tx.txid,
  raw_data: rawJson(tx, true),
  raw_data_hex: tx.rawDataHex
})

/**
 * A block; `detail: false` leaves the transactions out (java-tron's getblock switch). A block
 * without transactions has no `transactions` field at all.
 */
export const blockJson = (block: SimBlock, options: { readonly detail: boolean; readonly visible: boolean }) => ({
  blockID: block.blockId,
  block_header: {
    raw_data: compact({
      number: block.number,
      txTrieRoot: block.txTrieRoot,
      witness_address: addressText(block.witnessAddress, options.visible),
      parentHash: block.parentHash,
      version: block.version,
      timestamp: block.timestamp
    }),
    witness_signature: block.witnessSignature
  },
  ...(options.detail && block.transactions.length > 0
    ? { transactions: block.transactions.map((included) => transactionJson(included, options.visible)) }
    : {})
})
