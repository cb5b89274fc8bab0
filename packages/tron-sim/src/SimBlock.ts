import { createHash } from "node:crypto"
import { BlockHeader, TronSignature } from "@collector/tron"
import { Either } from "effect"
import type { SeededKey } from "./Seeded.js"
import { encodeSigned, type SimTransaction } from "./SimTransaction.js"
import type { SimTransactionInfo } from "./SimTransactionInfo.js"
import type { WorldState } from "./WorldState.js"

/**
 * A produced block: its header (whose hash, through `BlockHeader.blockId`, is the block ID and
 * commits to the parent's ID), the witness's real signature over it, the included transactions
 * with their infos, and the state after it.
 */

export interface IncludedTransaction {
  readonly tx: SimTransaction
  readonly info: SimTransactionInfo
  /** Injected by the control surface: put back in the pool unchecked if a reorganisation drops the block. */
  readonly system: boolean
}

export interface SimBlock {
  readonly number: bigint
  readonly blockId: string
  readonly parentHash: string
  readonly timestamp: number
  /** Merkle root of the transactions; all zeros for an empty block, as java-tron prints it. */
  readonly txTrieRoot: string
  /** 21-byte hex. */
  readonly witnessAddress: string
  readonly witnessSignature: string
  readonly version: number
  readonly transactions: ReadonlyArray<IncludedTransaction>
  readonly world: WorldState
}

/** Nile's block version at the time of the captures. */
export const blockVersion = 34

const zeroHash = "00".repeat(32)

const sha256 = (bytes: Uint8Array) => new Uint8Array(createHash("sha256").update(bytes).digest())

/** java-tron's Merkle tree: leaves are SHA-256 of each transaction, pairs hashed up, an odd node carried up. */
export const txTrieRoot = (transactions: ReadonlyArray<SimTransaction>): string => {
  if (transactions.length === 0) return zeroHash
  let level: Array<Uint8Array> = transactions.map((tx) => sha256(encodeSigned(tx)))
  while (level.length > 1) {
    const next: Array<Uint8Array> = []
    for (let i = 0; i < level.length; i += 2) {
      const right = level[i + 1]
      next.push(right === undefined ? level[i]! : sha256(new Uint8Array([...level[i]!, ...right])))
    }
    level = next
  }
  return Buffer.from(level[0]!).toString("hex")
}

export interface BlockContent {
  readonly number: bigint
  readonly parentHash: string
  readonly timestamp: number
  readonly witness: SeededKey
  readonly transactions: ReadonlyArray<IncludedTransaction>
  readonly world: WorldState
}

/** The header fields as `getblock` prints them (hex addresses). */
export const headerRaw = (block: Pick<SimBlock, "number" | "txTrieRoot" | "witnessAddress" | "parentHash" | "version" | "timestamp">) => ({
  number: block.number,
  txTrieRoot: block.txTrieRoot,
  witness_address: block.witnessAddress,
  parentHash: block.parentHash,
  version: block.version,
  timestamp: block.timestamp
})

export const makeBlock = (content: BlockContent): SimBlock => {
  const fields = {
    number: content.number,
    txTrieRoot: txTrieRoot(content.transactions.map((included) => included.tx)),
    witnessAddress: content.witness.hex,
    parentHash: content.parentHash,
    version: blockVersion,
    timestamp: content.timestamp
  }
  const raw = headerRaw(fields)
  // Every field is produced here and valid by construction: a failure is a bug.
  const blockId = Either.getOrThrow(BlockHeader.blockId(raw))
  const hash = Either.getOrThrow(BlockHeader.hash(raw))
  const witnessSignature = Buffer.from(TronSignature.sign(content.witness.secretKey, hash)).toString("hex")
  return { ...fields, blockId, witnessSignature, transactions: content.transactions, world: content.world }
}
