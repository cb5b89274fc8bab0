import { Duration, Effect, Logger, LogLevel, Random } from "effect"
import { bury } from "./Burial.js"
import { ChainAtCommit } from "./ChainAtCommit.js"
import { Dice } from "./Dice.js"
import { Faults } from "./Faults.js"
import { checkInvariants, watchStore } from "./Invariants.js"
import { Operator } from "./Operator.js"
import { Receiver } from "./Receiver.js"
import type { RunOptions } from "./RunOptions.js"
import { Scheduler } from "./Scheduler.js"
import { settle } from "./Settle.js"
import { SnapshotReader } from "./Snapshot.js"
import { countSolidifiedInRun, headsOf } from "./SolidifiedInRun.js"
import { recordSnapshot } from "./SnapshotTrace.js"
import { Trace } from "./Trace.js"
import { VirtualTime } from "./VirtualTime.js"
import * as World from "./World.js"
import { PathCounts } from "./workload/PathCounts.js"
import { workloadSummary } from "./workload/WorkloadSummary.js"

export const defaultRunOptions: RunOptions = { ticks: 30 }

/**
 * One seed in `longRunEvery` runs `longRunFactor` times the ticks: about 36 blocks instead of 18,
 * past the solidification depth of 19, so deposits made during the run solidify while the
 * workload and the faults still go on (not only in the settling, which buries everything at
 * once) and sweeps settle on blocks that reorganisations can still reach.
 */
export const longRunEvery = 8
export const longRunFactor = 2

/** The ticks seed `seed` runs under `options`. */
export const ticksOf = (seed: number, options: RunOptions) => seed % longRunEvery === 0 ? options.ticks * longRunFactor : options.ticks

export interface RunResult {
  readonly seed: number
  readonly violations: ReadonlyArray<string>
  readonly trace: string
  readonly passes: number
  readonly changes: number
  /** What the workload came to: sweep tasks by status and fee path, replays (`workloadSummary`). */
  readonly workload: string
}

/** Blocks made after the opening's payments: past every confirmation rule and solidification. */
const openingBurial = 20

/** Every run starts on the same day, so block times and deadlines replay too. */
const startTime = Date.UTC(2026, 5, 1, 0, 0, 0)

/**
 * One run of the whole service under `seed`: the world is built from the seed, the workload
 * drives it while the scheduler runs the workers' passes, the service settles, and the
 * invariants are checked on what it left. Everything happens in this fiber's TestClock and
 * seeded Random, with entropy drawn from the seed: the same seed gives the same trace.
 */
export const runOne = (seed: number, options: RunOptions = defaultRunOptions) =>
  Effect.gen(function*() {
    const id = String(seed)
    const dice = new Dice(id)
    const trace = new Trace()
    const history = watchStore(trace, options.storage !== "postgres")
    const defects: Array<string> = []
    let faults: Faults | undefined
    const receiver = new Receiver((request) => faults!.receiverAnswer(request))

    const faultDice = dice.stream("faults")
    const paths = new PathCounts()
    const storage = World.storageOf(options, trace, faultDice, paths)
    const time = new VirtualTime(startTime, storage.pendingWork)
    const program = Effect.gen(function*() {
      const world = yield* World.parts(id, receiver, options.plant, paths)
      if (history.complete) {
        const chains = new Map(world.networks.map(({ network, sim }) => [network, sim.chain.state] as const))
        // The chain is read at the moment the store reports a commit (its state is a plain reference).
        history.chainAtCommit = new ChainAtCommit(trace.feed, (network) => Effect.runSync(chains.get(network)!))
      }
      faults = new Faults(world, faultDice, trace)
      const crashAt = faults.crashAt
      const scheduler = new Scheduler(world, time, dice.stream("schedule"), trace, World.simulationEngineSettings, crashAt, (d) => defects.push(d))
      const operator = new Operator(world, dice.stream("workload"), trace, (d) => defects.push(d))
      const chainDice = dice.stream("chain")
      // The service starts on a chain that already holds the opening's payments, solidified.
      yield* operator.opening
      yield* bury(world, time, openingBurial)
      const startHeads = yield* headsOf(world)
      const ticks = ticksOf(seed, options)
      for (let tick = 0; tick < ticks; tick++) {
        yield* operator.step
        yield* faults.step
        yield* scheduler.round(0.3)
        for (const { sim } of world.networks) if (chainDice.chance(0.6)) yield* sim.chain.mine(1)
        yield* time.advance(Duration.seconds(chainDice.int(1, 3)))
      }
      yield* countSolidifiedInRun(world, startHeads)
      yield* faults.heal
      const left = yield* settle(world, time, scheduler, trace)
      const violations = [
        ...defects,
        ...left.map((what) => `did not settle: ${what}`),
        ...(yield* checkInvariants(world, history))
      ]
      const workload = workloadSummary(world, yield* Effect.flatMap(SnapshotReader, (reader) => reader.read))
      if (storage.tracedSnapshot !== undefined) yield* recordSnapshot(trace, storage.tracedSnapshot.ignored)
      return { violations, passes: scheduler.passesRun, workload }
    }).pipe(Effect.provide(World.services(id, storage.layer, receiver)))

    const { passes, violations, workload } = yield* Effect.scoped(program).pipe(
      Effect.withClock(time.clock),
      Effect.withScheduler(time.scheduler),
      Effect.withRandom(Random.make(id)),
      // The service's logs under faults are thousands of lines a run (every outage, every retry);
      // a run speaks through its violations and trace, `logs` lets them through when debugging.
      Logger.withMinimumLogLevel(options.logs === true ? LogLevel.Info : LogLevel.None)
    )
    return { seed, violations, trace: trace.digest(), passes, changes: trace.changes, workload } satisfies RunResult
  })
