import { Sweeps } from "@collector/core"
import { Clock, Duration, Effect } from "effect"
import { blockInterval, bury } from "./Burial.js"
import { type PassName, passNames, type Scheduler } from "./Scheduler.js"
import { SnapshotReader } from "./Snapshot.js"
import type { Trace } from "./Trace.js"
import type { VirtualTime } from "./VirtualTime.js"
import type { WorldParts } from "./WorldParts.js"

/** What is still to be done once the workload stopped; empty when the service is quiet. */
const outstanding = (world: WorldParts) =>
  Effect.gen(function*() {
    const snapshot = yield* Effect.flatMap(SnapshotReader, (reader) => reader.read)
    const left: Array<string> = []
    const unbooked = snapshot.observedLogs.filter((log) => !log.booked).length
    if (unbooked > 0) left.push(`${unbooked} stored logs unbooked`)
    const open = snapshot.events.filter((e) => e.status === "pending" || e.status === "delivering").length
    if (open > 0) left.push(`${open} events not delivered or failed`)
    const unfinished = snapshot.sweepTasks.filter((t) => !Sweeps.isTerminal(t.status)).length
    if (unfinished > 0) left.push(`${unfinished} sweep tasks unfinished`)
    // The own stake lent to a finished task comes back through the reclaim loop, after the task.
    const unreclaimed = snapshot.delegations.filter((d) => d.state !== "reclaimed").length
    if (unreclaimed > 0) left.push(`${unreclaimed} delegations unreclaimed`)
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
      ...snapshot.sweepTasks.filter((t) => !Sweeps.isTerminal(t.status)).map((t) => t.nextStepAt.getTime()),
      ...world.workers.filter((w) => !w.isUp).map((w) => w.downUntil)
    ]
    return times.length === 0 ? null : Math.min(...times)
  })

/** Enough blocks on top of the last transfer for every confirmation rule, solidification included. */
const burial = 25
const maxRounds = 400
/** Blocks a settling round adds while only sweep tasks are outstanding. */
const sweepBlocks = 4
/** What runs while only sweep tasks are outstanding: the sweeper moves them, the reclaim loop takes the stake back, the scanner keeps up. */
const sweepPasses: ReadonlyArray<PassName> = ["scan", "sweep", "reclaim"]
/** The chance of each pass in a settling round: enough that every loop runs within a few rounds. */
const settleChance = 0.6
/** Rounds with nothing outstanding changing before the clock starts to move faster. */
const patience = 20
/** An hour: a stake lent and taken back recovers over a day (java-tron moves the sweep's usage to it), so waits of a day must fit in the rounds. */
const longestStep = Duration.toMillis(Duration.hours(1))

/**
 * How far the clock moves after a round: a block interval, and, once the same things have been
 * outstanding for `patience` rounds, twice as far each round (up to an hour), so what waits on
 * time alone (a wallet's free bandwidth or an own stake coming back over a day, a rental running
 * out after an hour, a task cancelled at its preparation limit a day after it was made) still
 * comes within the rounds, while a round a block keeps the chain moving.
 */
const idleStep = (stuck: number) =>
  Math.min(longestStep, Duration.toMillis(blockInterval) * 2 ** Math.min(20, Math.max(0, stuck - patience)))

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
    yield* bury(world, time, burial)
    let before = ""
    let stuck = 0
    for (let round = 0; round < maxRounds; round++) {
      const left = yield* outstanding(world)
      if (left.length === 0) return left
      // The scanner's lag changes with every block made, so it does not count as progress.
      const waiting = left.filter((what) => !what.includes(" scanned to ")).join(";")
      stuck = waiting === before ? stuck + 1 : 0
      before = waiting
      // Once only sweeps are left, each waits on blocks (a delegation or a transfer to solidify)
      // or on time: a few blocks a round, with the sweeper and the scanner alone, bring them
      // there in fewer passes.
      const onlySweeps = waiting.length > 0 && left.every((what) => what.endsWith("sweep tasks unfinished") || what.endsWith("delegations unreclaimed") || what.includes(" scanned to "))
      const blocks = onlySweeps ? sweepBlocks : 1
      for (const { sim } of world.networks) yield* sim.chain.mine(blocks)
      yield* scheduler.round(settleChance, onlySweeps ? sweepPasses : passNames)
      const now = yield* Clock.currentTimeMillis
      const wake = yield* nextWake(world)
      const step = Math.max(idleStep(stuck), blocks * Duration.toMillis(blockInterval))
      const target = wake === null || wake <= now ? now + step : wake
      yield* time.advanceTo(Math.max(target, now + step))
    }
    return yield* outstanding(world)
  })
