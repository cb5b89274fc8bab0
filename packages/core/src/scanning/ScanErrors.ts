import { Data } from "effect"
import type { Network } from "../kernel/Network.js"

/**
 * The chain forked below the oldest block the scanner still keeps: it cannot tell which of its
 * stored transfers survived, so it stops rather than guess (an operator must look).
 */
export class ForkBelowStoredBlocks extends Data.TaggedError("ForkBelowStoredBlocks")<{
  readonly network: Network
  readonly oldestStored: bigint
}> {}
