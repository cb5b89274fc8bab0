import { Clock, Duration, Effect, Ref } from "effect"

/** Why a node was set aside: it failed or timed out, or its head fell behind the others'. */
export type NodeFaultReason = "unavailable" | "lagging"

export interface NodeHealthOptions {
  /** How long a node that failed or lagged is skipped. */
  readonly coolDown: Duration.DurationInput
  /** How many blocks a node's head may be behind the best head seen before it is skipped. */
  readonly maxLagBlocks: bigint
}

export const defaultNodeHealthOptions: NodeHealthOptions = { coolDown: Duration.seconds(30), maxLagBlocks: 5n }

/**
 * Which of a network's nodes (by position in the operator's order) should serve the next call.
 * A node that failed, timed out or whose head is more than `maxLagBlocks` behind the best head
 * any node showed rests for `coolDown`. Kept in memory: a restarted process gives every node a
 * fresh chance. `onChange` hears each node going up or down (for a metric).
 */
export interface NodeHealth {
  /** The nodes not resting, in order; every node in order when all of them rest (one may be back). */
  readonly candidates: Effect.Effect<ReadonlyArray<number>>
  /** How many nodes are not resting now. */
  readonly healthyCount: Effect.Effect<number>
  /** Rests `node` for the cool-down from now (a later fault starts it again). */
  readonly fault: (node: number, reason: NodeFaultReason, detail: string) => Effect.Effect<void>
  /**
   * Records `node`'s head; rests it when it is more than the lag limit behind the best head seen.
   * Answers whether the node counts as current.
   */
  readonly sawHead: (node: number, head: bigint) => Effect.Effect<boolean>
}

interface State {
  readonly restingUntil: ReadonlyArray<number>
  readonly bestHead: bigint
}

export const makeNodeHealth = (
  names: ReadonlyArray<string>,
  options: NodeHealthOptions,
  onChange: (node: number, up: boolean, reason?: NodeFaultReason) => Effect.Effect<void> = () => Effect.void
): Effect.Effect<NodeHealth> =>
  Effect.gen(function*() {
    const state = yield* Ref.make<State>({ restingUntil: names.map(() => 0), bestHead: -1n })
    // What `onChange` was last told per node, so a node coming back after its cool-down is reported once.
    const reportedUp = names.map(() => true)
    const coolDown = Duration.toMillis(options.coolDown)

    const awake = Effect.gen(function*() {
      const [{ restingUntil }, now] = yield* Effect.all([Ref.get(state), Clock.currentTimeMillis])
      const up = names.map((_, i) => restingUntil[i]! <= now)
      for (const [i, isUp] of up.entries()) {
        if (isUp && !reportedUp[i]) {
          reportedUp[i] = true
          yield* onChange(i, true)
        }
      }
      return up
    })

    const fault: NodeHealth["fault"] = (node, reason, detail) =>
      Effect.gen(function*() {
        const now = yield* Clock.currentTimeMillis
        const until = now + coolDown
        yield* Ref.update(state, (s) => ({ ...s, restingUntil: s.restingUntil.map((u, i) => (i === node ? until : u)) }))
        reportedUp[node] = false
        yield* onChange(node, false, reason)
        yield* Effect.logWarning(`TRON node ${names[node]} rests until ${new Date(until).toISOString()} (${reason}): ${detail}`)
      })

    return {
      candidates: Effect.map(awake, (up) => {
        const healthy = names.flatMap((_, i) => (up[i] ? [i] : []))
        return healthy.length > 0 ? healthy : names.map((_, i) => i)
      }),
      healthyCount: Effect.map(awake, (up) => up.filter((u) => u).length),
      fault,
      sawHead: (node, head) =>
        Effect.gen(function*() {
          const { bestHead } = yield* Ref.updateAndGet(state, (s) => (head > s.bestHead ? { ...s, bestHead: head } : s))
          if (bestHead - head <= options.maxLagBlocks) return true
          yield* fault(node, "lagging", `head ${head} is ${bestHead - head} blocks behind the best head seen, ${bestHead}`)
          return false
        })
    }
  })
