import { Data } from "effect"

/**
 * Bytes or JSON that cannot be a TRON protocol message of the expected kind: malformed
 * protobuf, a field this codec does not model, a bad address or hex string, a value out of
 * range. `reason` names the field and the rule and carries only public data (never key
 * material), so it can be logged as is.
 */
export class ProtocolError extends Data.TaggedError("TronProtocolError")<{ readonly reason: string }> {}
