import { Duration, Effect, Random } from "effect"
import { Dice } from "./Dice"
import { depositsMatchChain } from "./invariants/DepositsMatchChain"
import { Operator } from "./Operator"
import { Receiver, type ReceiverAnswer } from "./Receiver"
import { Scheduler } from "./Scheduler"
import { settle } from "./Settle"
import { Trace } from "./Trace"
import { VirtualTime } from "./VirtualTime"
import * as World from "./World"

export interface RunOptions {
  /** Steps of the workload before the service is left to settle. */
  readonly ticks: number
}

export const defaultRunOptions: RunOptions = { ticks: 60 }

export interface RunResult {
  readonly seed: number
  readonly violations: ReadonlyArray<string>
  readonly trace: string
  readonly passes: number
  readonly changes: number
}

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
    const defects: Array<string> = []
    const receiverDice = dice.stream("receiver")
    const receiver = new Receiver(() => Effect.sync((): ReceiverAnswer => (receiverDice.chance(0.8) ? "ack" : "serverError")))
    const crashDice = dice.stream("crashes")
    const crashAt = (worker: string, point: string) =>
      Effect.sync(() => {
        const dies = crashDice.chance(0.01)
        if (dies) trace.record(`checkpoint crash ${worker} at ${point}`)
        return dies
      })

    const time = new VirtualTime(startTime)
    const program = Effect.gen(function*() {
      const world = yield* World.parts(id, receiver)
      const scheduler = new Scheduler(world, time, dice.stream("schedule"), trace, World.simulationEngineSettings, crashAt, (d) => defects.push(d))
      const operator = new Operator(world, dice.stream("workload"), trace)
      const chainDice = dice.stream("chain")
      for (let tick = 0; tick < options.ticks; tick++) {
        yield* operator.step
        yield* scheduler.round(0.3)
        for (const { sim } of world.networks) if (chainDice.chance(0.6)) yield* sim.chain.mine(1)
        yield* time.advance(Duration.seconds(chainDice.int(1, 3)))
      }
      const left = yield* settle(world, time, scheduler, trace)
      const violations = [
        ...defects,
        ...left.map((what) => `did not settle: ${what}`),
        ...(yield* depositsMatchChain(world))
      ]
      return { violations, passes: scheduler.passesRun }
    }).pipe(Effect.provide(World.services(id, trace.onChange, receiver)))

    const { passes, violations } = yield* Effect.scoped(program).pipe(
      Effect.withClock(time.clock),
      Effect.withScheduler(time.scheduler),
      Effect.withRandom(Random.make(id))
    )
    return { seed, violations, trace: trace.digest(), passes, changes: trace.changes } satisfies RunResult
  })
