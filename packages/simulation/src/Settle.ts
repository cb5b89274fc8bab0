import { isTerminal } from "@collector/core"
import { Clock, Duration, Effect } from "effect"
import type { Scheduler } from "./Scheduler"
import { SnapshotReader } from "./Snapshot"
import type { Trace } from "./Trace"
import type { VirtualTime } from "./VirtualTime"
import type { WorldParts } from "./World"

/** What is still to be done once the workload stopped; empty when the service is quiet. */
const outstanding = (world: WorldParts) =>
  Effect.gen(function*() {
    const snapshot = yield* Effect.flatMap(SnapshotReader, (reader) => reader.read)
    const left: Array<string> = []
    const unbooked = snapshot.observedLogs.filter((log) => !log.booked).length
    if (unbooked > 0) left.push(`${unbooked} stored logs unbooked`)
    const open = snapshot.events.filter((e) => e.status === "pending" || e.status === "delivering").length
    if (open > 0) left.push(`${open} events not delivered or failed`)
    const unfinished = snapshot.sweepTasks.filter((t) => !isTerminal(t.status)).length
    if (unfinished > 0) left.push(`${unfinished} sweep tasks unfinished`)
    for (const { network, sim } of world.networks) {
      const head = (yield* sim.chain.state).blocks.at(-1)!.number
      const cursor = snapshot.scanCursors.find((c) => c.network === network)
      if (cursor === undefined || cursor.blockNumber < head) left.push(`${network} scanned to ${cursor?.blockNumber ?? "nothing"} of ${head}`)
    }
    return left
  })

/** The next moment anything is due: an event's attempt, a task's step, a worker's restart. */
const nextWake = (world: WorldParts) =>
  Effect.gen(function*() {
    const snapshot = yield* Effect.flatMap(SnapshotReader, (reader) => reader.read)
    const times = [
      ...snapshot.events.filter((e) => e.nextAttempt !== null && (e.status === "pending" || e.status === "delivering"))
        .map((e) => e.nextAttempt!.getTime()),
      ...snapshot.sweepTasks.filter((t) => !isTerminal(t.status)).map((t) => t.nextStepAt.getTime()),
      ...world.workers.filter((w) => !w.isUp).map((w) => w.downUntil)
    ]
    return times.length === 0 ? null : Math.min(...times)
  })

const blockInterval = Duration.seconds(3)
/** Enough blocks on top of the last transfer for every confirmation rule, solidification included. */
const burial = 25
const maxRounds = 400
/** Rounds with nothing outstanding changing before the clock starts to move faster. */
const patience = 20
const longestStep = Duration.toMillis(Duration.minutes(10))

/**
 * How far the clock moves after a round: a block interval, and, once the same things have been
 * outstanding for `patience` rounds, a longer step each round (up to ten minutes), so what waits
 * on time alone (a wallet's free bandwidth coming back over a day, a rental running out after an
 * hour) still comes within the rounds, while a round a block keeps the chain moving.
 */
const idleStep = (stuck: number) =>
  Math.min(longestStep, Duration.toMillis(blockInterval) * (1 + Math.max(0, stuck - patience)))

/**
 * Lets the service finish what the workload gave it, with every fault healed: blocks keep coming
 * until the last transfers are solidified and scanned, every worker runs every pass each round,
 * and the clock jumps to the next thing due (a retry, a sweep step, a restart) whenever the
 * service is idle. Returns what was still outstanding after the last round (nothing when it settled).
 */
export const settle = (world: WorldParts, time: VirtualTime, scheduler: Scheduler, trace: Trace) =>
  Effect.gen(function*() {
    trace.record("settle")
    // The blocks that bury the last transfers, one interval apart, before anything runs again.
    for (let i = 0; i < burial; i++) {
      for (const { sim } of world.networks) yield* sim.chain.mine(1)
      yield* time.advance(blockInterval)
    }
    let before = ""
    let stuck = 0
    for (let round = 0; round < maxRounds; round++) {
      const left = yield* outstanding(world)
      if (left.length === 0) return left
      stuck = left.join(";") === before ? stuck + 1 : 0
      before = left.join(";")
      for (const { sim } of world.networks) yield* sim.chain.mine(1)
      yield* scheduler.round(1)
      const now = yield* Clock.currentTimeMillis
      const wake = yield* nextWake(world)
      const step = idleStep(stuck)
      const target = wake === null || wake <= now ? now + step : wake
      yield* time.advanceTo(Math.max(target, now + step))
    }
    return yield* outstanding(world)
  })
