import { Context, Data, type Effect } from "effect"

/** The store did not answer: the health check reports it, the dashboard fails. */
export class StorageUnreachable extends Data.TaggedError("StorageUnreachable")<{ readonly cause: unknown }> {}

/**
 * Port: whether the store answers. Every other storage port treats a failure as a defect; here
 * the failure is the answer, so it is typed.
 */
export class StorageProbe extends Context.Tag("@collector/core/StorageProbe")<
  StorageProbe,
  {
    /** One round trip to the store. */
    readonly ping: Effect.Effect<void, StorageUnreachable>
  }
>() {}
