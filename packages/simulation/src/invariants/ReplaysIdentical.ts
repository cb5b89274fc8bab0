import { Effect } from "effect"
import type { WorldParts } from "../World.js"

/**
 * Every repeated idempotent request answered as it had to: a replay (same key, same body, later)
 * and a concurrent duplicate exactly as the first request, a conflicting replay (same key,
 * other body) with the conflict error.
 */
export const replaysIdentical = (world: WorldParts) =>
  Effect.sync(() =>
    world.ledger.replays
      .filter((r) => r.actual !== r.expected)
      .map((r) => `${r.kind} of ${r.operation} ${r.requestId} answered ${r.actual.slice(0, 300)}, not ${r.expected.slice(0, 300)}`)
  )
