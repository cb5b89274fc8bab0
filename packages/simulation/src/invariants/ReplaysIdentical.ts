import { Conflict } from "@collector/api"
import { Effect, Schema } from "effect"
import type { WorldParts } from "../WorldParts.js"
import type { ReplayComparison } from "../workload/WorkloadLedger.js"

const decodeConflict = Schema.decodeUnknownEither(Schema.parseJson(Conflict))

/**
 * The contract's answer to a conflicting replay: status 409 and a body that decodes with the
 * published `Conflict` error schema with error_code IDEMPOTENCY_CONFLICT (its trace_id is the
 * response's own and left out of what was recorded).
 */
const isIdempotencyConflict = (answer: string): boolean => {
  const space = answer.indexOf(" ")
  if (answer.slice(0, space) !== "409") return false
  let body: unknown
  try {
    body = JSON.parse(answer.slice(space + 1))
  } catch {
    return false
  }
  if (typeof body !== "object" || body === null) return false
  const decoded = decodeConflict(JSON.stringify({ ...body, trace_id: "0".repeat(32) }))
  return decoded._tag === "Right" && decoded.right.error_code === "IDEMPOTENCY_CONFLICT"
}

const answeredAsItMust = (r: ReplayComparison) => (r.kind === "conflict" ? isIdempotencyConflict(r.actual) : r.actual === r.expected)

/**
 * Every repeated write answered through the API as the contract says (oracle: the workload's
 * ledger of first answers and the published error schema): a replay (same request_id and body,
 * later) and a concurrent duplicate with exactly the first answer, status and body (its
 * trace_id aside); a conflicting replay (same request_id, other body or path) with 409
 * IDEMPOTENCY_CONFLICT.
 */
export const replaysIdentical = (world: WorldParts) =>
  Effect.sync(() =>
    world.ledger.replays
      .filter((r) => !answeredAsItMust(r))
      .map((r) => `${r.kind} of ${r.operation} ${r.requestId} answered ${r.actual.slice(0, 300)}, not ${r.expected.slice(0, 300)}`)
  )
