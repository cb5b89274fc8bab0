import { Option } from "effect"

/**
 * TaPoS: a transaction names a recent block (`ref_block_bytes` = bytes 6-7 of its number,
 * `ref_block_hash` = bytes 8-15 of its ID) and a node accepts it only while that block is on
 * its chain, so a transaction built on a fork that lost cannot land. Both come from the block
 * ID alone, whose first 8 bytes are the number.
 */
export interface RefBlock {
  readonly ref_block_bytes: string
  readonly ref_block_hash: string
}

const blockIdPattern = /^[0-9a-fA-F]{64}$/

/** The reference fields for a block ID (64 hex characters); None for anything else. */
export const fromBlockId = (blockId: string): Option.Option<RefBlock> =>
  typeof blockId === "string" && blockIdPattern.test(blockId)
    ? Option.some({ ref_block_bytes: blockId.slice(12, 16).toLowerCase(), ref_block_hash: blockId.slice(16, 32).toLowerCase() })
    : Option.none()

/** The block number a block ID starts with. */
export const blockNumber = (blockId: string): Option.Option<bigint> =>
  typeof blockId === "string" && blockIdPattern.test(blockId) ? Option.some(BigInt("0x" + blockId.slice(0, 16))) : Option.none()
