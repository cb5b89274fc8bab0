import { createHash } from "node:crypto"
import { TronAddress } from "@collector/tron"
import { Option } from "effect"

/**
 * The simulator's only source of "randomness": bytes derived from the configured seed and a
 * label. Two simulators with the same seed, clock and requests build byte-identical chains, so
 * a failing test replays exactly.
 */

/** 32 bytes: SHA-256 of `seed/label`. */
export const seededBytes = (seed: string, label: string): Uint8Array =>
  new Uint8Array(createHash("sha256").update(`${seed}/${label}`, "utf8").digest())

export const seededHex = (seed: string, label: string): string => Buffer.from(seededBytes(seed, label)).toString("hex")

/** A key pair of the simulated world, e.g. a super representative's. */
export interface SeededKey {
  readonly secretKey: Uint8Array
  /** Base58Check. */
  readonly address: string
  /** 21-byte hex (`41…`). */
  readonly hex: string
}

/** A secp256k1 key from the seed. A digest outside the curve order (odds ~2^-128) would throw: relabel then. */
export const seededKey = (seed: string, label: string): SeededKey => {
  const secretKey = seededBytes(seed, `key/${label}`)
  const address = TronAddress.fromSecretKey(secretKey)
  const hex = Option.getOrThrow(TronAddress.toHex(address))
  return { secretKey, address, hex }
}

/** 27 super representatives, as on the real networks. */
export const witnessCount = 27

export const witnessKeys = (seed: string): ReadonlyArray<SeededKey> =>
  Array.from({ length: witnessCount }, (_, i) => seededKey(seed, `witness/${i}`))

/**
 * A signature-shaped 65 bytes for a system transaction from an address whose key the simulator
 * does not hold (an exchange, another user): such transactions are injected, never verified.
 */
export const placeholderSignature = (seed: string, txid: string): string =>
  seededHex(seed, `signature/r/${txid}`) + seededHex(seed, `signature/s/${txid}`) + "00"
