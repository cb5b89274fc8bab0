import { Effect } from "effect"
import type { Dice } from "../Dice.js"
import type { Trace } from "../Trace.js"
import type { WorldParts } from "../WorldParts.js"
import type { Outcomes } from "./Outcomes.js"
import type { Population } from "./Population.js"
import type { Replays } from "./Replays.js"

/** What every part of the workload works with. */
export interface Workload {
  readonly world: WorldParts
  readonly population: Population
  readonly dice: Dice
  readonly trace: Trace
  readonly outcomes: Outcomes
  readonly replays: Replays
}

export const usdt = (whole: bigint) => whole * 1_000_000n
export const trx = (whole: bigint) => whole * 1_000_000n

export const networkOf = (workload: Workload, network: string) => workload.world.networks.find((n) => n.network === network)!

/** The head block of a network's simulator now. */
export const headOf = (workload: Workload, network: string) =>
  Effect.map(networkOf(workload, network).sim.chain.state, (state) => state.blocks.at(-1)!.number)
