import { TronSignature } from "@collector/tron"
import { Effect, Option } from "effect"
import type { SimChain } from "../SimChain.js"
import { signedHex } from "../SimTransaction.js"
import { handleWallet } from "../WalletApi.js"
import type { SimWallet } from "./SimWallet.js"

/**
 * The node API called in process, with the reply as the HTTP client would parse it: for tests
 * on TestClock that check java-tron's reply shapes without a server. Amounts go in as decimal
 * strings (java-tron reads those as int64 too), never as JS numbers.
 */
export const walletCall = (chain: SimChain, path: string, body: Record<string, unknown>): Effect.Effect<any> =>
  Effect.map(handleWallet(chain, path.startsWith("/") ? path : `/wallet/${path}`, JSON.stringify(body)), (reply) =>
    JSON.parse(JSON.stringify(Option.getOrThrow(reply), (_, value) => (typeof value === "bigint" ? Number(value) : value))))

/**
 * Builds with the node's builder at `path` (visible addresses), signs the txID with `by` and
 * broadcasts the bytes on `broadcasthex`. The builder's `{"Error"}` is returned as it came,
 * otherwise the broadcast reply.
 */
export const buildSignBroadcast = (chain: SimChain, path: string, body: Record<string, unknown>, by: SimWallet): Effect.Effect<any> =>
  Effect.gen(function*() {
    const built = yield* walletCall(chain, path, { ...body, visible: true })
    return built.Error !== undefined ? built : yield* broadcastBuilt(chain, built, by)
  })

/** Signs a builder's transaction (`txID`, `raw_data_hex`) with `by` and broadcasts it on `broadcasthex`. */
export const broadcastBuilt = (chain: SimChain, built: { readonly txID: string; readonly raw_data_hex: string }, by: SimWallet): Effect.Effect<any> => {
  const signature = Buffer.from(TronSignature.sign(by.secretKey, new Uint8Array(Buffer.from(built.txID, "hex")))).toString("hex")
  return walletCall(chain, "broadcasthex", { transaction: signedHex({ rawDataHex: built.raw_data_hex, signatures: [signature] }) })
}
