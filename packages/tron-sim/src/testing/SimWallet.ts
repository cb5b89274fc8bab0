import { TransactionRaw, TronAddress, TronSignature, Trc20Call } from "@collector/tron"
import { Clock, Effect, Either, Option } from "effect"
import type { SimChain } from "../SimChain.js"
import { usdtHex } from "../SimConfig.js"
import { fromRawData, signedHex, type SimTransaction } from "../SimTransaction.js"
import { buildTrigger, rawFor, transferContract } from "../TransactionBuilder.js"

/**
 * A user of the simulated network holding a real key: builds transactions the way the node's
 * builders do and signs them, for tests that broadcast. Keys are fixed (the test vectors' 1, 2,
 * 3, ...), so addresses are the same in every run.
 */
export interface SimWallet {
  readonly secretKey: Uint8Array
  readonly address: string
  readonly hex: string
}

export const wallet = (n: number): SimWallet => {
  const secretKey = new Uint8Array(Buffer.from(n.toString(16).padStart(64, "0"), "hex"))
  const address = TronAddress.fromSecretKey(secretKey)
  return { secretKey, address, hex: Option.getOrThrow(TronAddress.toHex(address)) }
}

const hexBytes = (hex: string) => new Uint8Array(Buffer.from(hex, "hex"))

export const sign = (tx: SimTransaction, by: SimWallet): SimTransaction => ({
  ...tx,
  signatures: [Buffer.from(TronSignature.sign(by.secretKey, hexBytes(tx.txid))).toString("hex")]
})

const fromRaw = (raw: TransactionRaw.RawData) => Either.getOrThrow(fromRawData(raw, []))

/** An unsigned USDT transfer built on the chain's current head. */
export const usdtTransfer = (chain: SimChain, from: SimWallet, to: string, amount: bigint, feeLimit: bigint) =>
  Effect.gen(function*() {
    const state = yield* chain.state
    const data = Either.getOrThrow(Trc20Call.transferData(to, amount))
    const request = { owner: from.hex, contract: usdtHex(state.config), data, callValue: 0n, feeLimit }
    return fromRaw(Either.getOrThrow(buildTrigger(state, request, yield* Clock.currentTimeMillis)))
  })

/** An unsigned TRX transfer built on the chain's current head. */
export const trxTransfer = (chain: SimChain, from: SimWallet, to: string, amount: bigint) =>
  Effect.gen(function*() {
    const state = yield* chain.state
    const toHex = Option.getOrThrow(TronAddress.toHex(to))
    return fromRaw(rawFor(state, transferContract({ owner_address: from.hex, to_address: toHex, amount }), yield* Clock.currentTimeMillis))
  })

/** Signs `tx` with `by` and broadcasts it; the txid, or the node's refusal. */
export const signAndBroadcast = (chain: SimChain, tx: SimTransaction, by: SimWallet) => chain.broadcastHex(signedHex(sign(tx, by)))
