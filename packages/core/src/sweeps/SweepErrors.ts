import { Schema } from "effect"

export class SweepNotFound extends Schema.TaggedError<SweepNotFound>()("SweepNotFound", { taskId: Schema.String }) {
  override get message() {
    return `sweep task ${this.taskId} not found`
  }
}

/**
 * Why one wallet of a create batch got no task. The codes are part of the contract's
 * per-item result (docs/sweeps.md).
 */
export type SweepItemFailure =
  | "WALLET_NOT_FOUND"
  | "WALLET_COLLECTING"
  | "WALLET_IS_COLLECTION_ADDRESS"
  | "COLLECTION_ADDRESS_NOT_SET"
