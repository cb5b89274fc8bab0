import type { BlockRef, ChainParameters } from "../chain/ChainModel.js"

/**
 * What every step of one sweeper pass shares about the chain, read once at the start of the
 * pass, before any task's own reads: the solidified block is therefore never newer than a
 * receipt looked up later in the pass, which is what the proof of a lost transaction needs.
 */
export interface ChainView {
  readonly head: BlockRef
  readonly solidified: BlockRef
  readonly parameters: ChainParameters
}
