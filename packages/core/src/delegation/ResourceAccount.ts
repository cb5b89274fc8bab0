import type { Network } from "../kernel/Network.js"
import type { WalletKey } from "../wallets/WalletKey.js"

/**
 * The operator's account that has staked TRX for energy and lends it to sweeps. Its key is
 * held as a wallet's is (sealed locally or a token's label) and signs through the Signer port.
 */
export interface ResourceAccount {
  readonly network: Network
  readonly address: string
  readonly key: WalletKey
}
