import { RefBlock, type TransactionRaw } from "@collector/tron"
import { Option } from "effect"
import type { SimBlock } from "./SimBlock.js"
import { blockByNumber, head, type SimState } from "./SimState.js"

/**
 * TaPoS as java-tron checks it: the node remembers, for each value of a block number's low two
 * bytes, the newest canonical block with them (its recent-block store), and a transaction's
 * `ref_block_hash` must equal bytes 8-15 of that block's ID. After a reorganisation drops the
 * referenced block the check fails, so a transaction built on the losing fork cannot land.
 */

/** The reference fields a transaction built now would carry: the head block's. */
export const referenceTo = (block: SimBlock): RefBlock.RefBlock => Option.getOrThrow(RefBlock.fromBlockId(block.blockId))

/** The newest canonical block whose number ends in `refBlockBytes`. */
const recentBlock = (state: SimState, refBlockBytes: string): Option.Option<SimBlock> => {
  if (!/^[0-9a-f]{4}$/i.test(refBlockBytes)) return Option.none()
  const low = BigInt("0x" + refBlockBytes)
  const top = head(state).number
  return blockByNumber(state, top - ((top - low) & 0xffffn))
}

export const taposHolds = (state: SimState, raw: Pick<TransactionRaw.RawData, "ref_block_bytes" | "ref_block_hash">): boolean =>
  Option.match(recentBlock(state, raw.ref_block_bytes), {
    onNone: () => false,
    onSome: (block) => referenceTo(block).ref_block_hash === raw.ref_block_hash.toLowerCase()
  })
