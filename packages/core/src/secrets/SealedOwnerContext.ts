import { appSecretContext, keyCheckContext, type SealContext, walletKeyContext, webhookKeyContext } from "./SealContext.js"
import type { SealedOwner } from "./SealedValues.js"

/** The place a stored value was sealed for, from what it belongs to. */
export const sealContextOf = (owner: SealedOwner): SealContext => {
  switch (owner._tag) {
    case "KeyCheck":
      return keyCheckContext
    case "AppSecret":
      return appSecretContext(owner.tenantId, owner.network)
    case "WebhookKey":
      return webhookKeyContext(owner.tenantId, owner.network)
    case "WalletKey":
      return walletKeyContext(owner.address)
    // The Signer opens every signing key by the address it signs for, a resource account's too.
    case "ResourceAccountKey":
      return walletKeyContext(owner.address)
  }
}
