import type { Chain } from "@collector/core"
import { TronSignature } from "@collector/tron"
import { defaultNodeConfig, type NodeConfig, TronNodeChain } from "@collector/tron-node"
import { FetchHttpClient } from "@effect/platform"
import { Duration, Effect } from "effect"
import { defaultSimConfig, type SimConfig } from "../SimConfig.js"
import { start } from "../SimHttp.js"
import type { SimWallet } from "./SimWallet.js"

/**
 * The simulator on a random local port with manual blocks, and the real node adapter pointed
 * at it (full node and solidity node on the same URL, as on TronGrid). Scoped: the server stops
 * with the test.
 */
export const startSimNode = (overrides: Partial<SimConfig> = {}) =>
  start({ chain: defaultSimConfig("nile", overrides), blocks: "manual" }).pipe(Effect.orDie)

/** The production adapter, configured the way a test network is, minus slow retries. */
export const adapterFor = (url: string, overrides: Partial<NodeConfig> = {}) =>
  TronNodeChain.make(defaultNodeConfig("nile", {
    fullNodeUrl: url,
    solidityUrl: url,
    requestTimeout: Duration.seconds(2),
    retries: 0,
    retryBaseDelay: Duration.millis(5),
    requestsPerSecond: 1000,
    ...overrides
  })).pipe(Effect.provide(FetchHttpClient.layer))

/** Signs an adapter-built transaction the way the service's signer does: over the txid. */
export const signWith = (transaction: Chain.UnsignedTransaction, by: SimWallet): Chain.SignedTransaction => ({
  ...transaction,
  signatures: [Buffer.from(TronSignature.sign(by.secretKey, new Uint8Array(Buffer.from(transaction.txid, "hex")))).toString("hex")]
})
