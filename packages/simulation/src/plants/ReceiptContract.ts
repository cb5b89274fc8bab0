import { lettingOtherTokensThrough } from "./OtherTokenLogs.js"

/**
 * Planted defect `receipt-contract` (the node adapter): the USDT filter is applied to the
 * receipt, not to each log. A receipt with any USDT log is taken as USDT throughout, so another
 * token's Transfer in the same transaction (a swap's, a router's) becomes a deposit too.
 */
export const plant = lettingOtherTokensThrough((transfer, usdtTxids) => usdtTxids.has(transfer.txid))
