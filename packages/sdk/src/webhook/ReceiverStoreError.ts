import { Data } from "effect"

/** A receiver store (de-duplication or revisions) could not answer; the delivery is retried. */
export class ReceiverStoreError extends Data.TaggedError("ReceiverStoreError")<{ readonly cause: unknown }> {
  override get message(): string {
    return "receiver store failed"
  }
}
