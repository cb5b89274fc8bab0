// The tenant's integration steps with the Promise client: plain JavaScript, async/await, no Effect.
import { CollectorApiError, CollectorClient } from "@collector/sdk"

export const connect = ({ baseUrl, appId, appSecret }) => new CollectorClient({ baseUrl, appId, appSecret })

/** Every deposit of a customer, over every page of the list. */
export const depositsOf = async (client, customId) => {
  const found = []
  for await (const deposit of client.deposits.list({ page_size: 20 })) if (deposit.custom_id === customId) found.push(deposit)
  return found
}

/** A wallet for a customer, or the one it already has (its custom_id is taken: 409 BUSINESS_CONFLICT). */
export const walletFor = async (client, customId) => {
  try {
    return await client.wallets.create({ custom_id: customId })
  } catch (error) {
    if (!(error instanceof CollectorApiError && error.code === "BUSINESS_CONFLICT")) throw error
    for await (const wallet of client.wallets.list({ page_size: 100 })) if (wallet.custom_id === customId) return wallet
    throw error
  }
}
