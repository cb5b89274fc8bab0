import { type HandlerOverrides, walletHandlers } from "@collector/http-server"

/**
 * Planted defect `unwrapped-create` (the http-server's wallet handlers): the create handler calls
 * the use case directly, its idempotency wrapper left out, so a repeated request_id creates again
 * (or is refused as a taken custom_id) instead of getting the saved answer, and other parameters
 * under the same request_id are not refused as a conflict.
 */
export const handlers: HandlerOverrides = {
  wallets: walletHandlers((_key, _schemas, work) => work)
}
