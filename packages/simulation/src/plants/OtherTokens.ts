import { lettingOtherTokensThrough } from "./OtherTokenLogs.js"

/**
 * Planted defect `other-tokens` (the node adapter): a block's Transfer logs are kept whatever
 * contract emitted them (the filter on the USDT contract forgotten), so another token's transfer
 * into a wallet becomes a deposit.
 */
export const plant = lettingOtherTokensThrough(() => true)
