import { Effect } from "effect"
import type { ChildProcess } from "node:child_process"
import { exited } from "../../../../test-support/ChildExit.js"
import { startTs } from "../../../../test-support/Processes.js"
import { Sim, sweepWorkerEnv } from "./SweepHarness.js"

/** A sweep worker's settings for the crash tests: every wait short, a killed worker's claims soon free. */
export const crashWorkerEnv = (databaseUrl: string, nodeUrl: string, startBlock: bigint, crashAt?: string) => ({
  ...sweepWorkerEnv(databaseUrl, nodeUrl, startBlock, crashAt),
  TRON_REQUEST_RETRIES: "0",
  SWEEP_IDLE_MS: "50",
  SWEEP_SETTLE_DELAY_MS: "500",
  SWEEP_SETTLE_MS: "100",
  SWEEP_RENTAL_POLL_MS: "100",
  SWEEP_RETRY_MS: "200",
  SWEEP_REBROADCAST_MS: "1000",
  // A killed worker's claims run out this fast; a step takes far less.
  SWEEP_LEASE_TTL_MS: "1500",
  // Blocks come 30 times faster than on chain here: a signed transaction must outlive a restart.
  SWEEP_TX_VALIDITY_MS: "3600000"
})

/** Every save checkpoint of a sweep that gets its energy delegated (rented or lent), in the order one task passes them. */
export const sweepCheckpoints: ReadonlyArray<string> = [
  "before:pending/renting",
  "after:pending/renting",
  "before:pending/waiting_energy",
  "after:pending/waiting_energy",
  "before:ready/ready",
  "after:ready/ready",
  "before:signed/ready",
  "after:signed/ready",
  "before:broadcast/ready",
  "after:broadcast/ready",
  "before:succeeded/ready",
  "after:succeeded/ready"
]

export const killed = (child: ChildProcess, signal: NodeJS.Signals = "SIGKILL") =>
  Effect.suspend(() => {
    if (child.exitCode === null && child.signalCode === null) child.kill(signal)
    return exited(child)
  })

export const headOf = Effect.flatMap(Sim, (sim) => Effect.map(sim.chain.state, (state) => state.blocks[state.blocks.length - 1]!.number))

/** A block every 100 ms while the test runs, as the chain would make them. */
export const mining = Effect.flatMap(Sim, (sim) => Effect.forever(Effect.zipRight(sim.chain.mine(1), Effect.sleep("100 millis"))))

/**
 * A worker started for each point in turn (`envFor` its environment) that must kill itself there;
 * `state` tells what the task looked like when one never got there.
 */
export const killedAtEach = <E, R>(
  points: ReadonlyArray<string>,
  envFor: (point: string) => Record<string, string>,
  state: Effect.Effect<unknown, E, R>
) =>
  Effect.forEach(points, (point) =>
    Effect.gen(function*() {
      const child = startTs("apps/worker/src/main.ts", envFor(point))
      yield* Effect.raceFirst(
        exited(child),
        Effect.zipRight(
          Effect.sleep("120 seconds"),
          Effect.flatMap(state, (seen) => Effect.dieMessage(`the worker never reached ${point}: ${JSON.stringify(seen)}`))
        )
      ).pipe(Effect.ensuring(killed(child)))
      return { point, signal: child.signalCode }
    }), { discard: false })
