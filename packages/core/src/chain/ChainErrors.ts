import { Data } from "effect"

/** The node did not answer usefully (down, timing out, rate-limited past our retries). */
export class ChainUnavailable extends Data.TaggedError("ChainUnavailable")<{ readonly reason: string }> {}

/** The node answered, but with something the service cannot use (an error object, a bad shape). */
export class ChainRejected extends Data.TaggedError("ChainRejected")<{ readonly reason: string }> {}

export class BlockNotFound extends Data.TaggedError("BlockNotFound")<{ readonly number: bigint }> {}
