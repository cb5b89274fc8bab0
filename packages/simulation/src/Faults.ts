import { Effect } from "effect"
import type { Dice } from "./Dice.js"
import { BroadcastFaults } from "./faults/BroadcastFaults.js"
import { NodeFaults } from "./faults/NodeFaults.js"
import { NodeSetFaults } from "./faults/NodeSetFaults.js"
import { PowerCuts } from "./faults/PowerCuts.js"
import { ProviderFaults } from "./faults/ProviderFaults.js"
import { ReceiverFaults } from "./faults/ReceiverFaults.js"
import { Reorgs } from "./faults/Reorgs.js"
import type { ReceiverAnswer } from "./Receiver.js"
import type { SnapshotReader } from "./Snapshot.js"
import type { Trace } from "./Trace.js"
import type { WorldParts } from "./WorldParts.js"

export { faultRates } from "./faults/FaultRates.js"
export { midRoundCut } from "./faults/PowerCuts.js"

/**
 * The faults of a run, drawn from its dice (a stream per fault and network, so one never shifts
 * another's draws) at the rates of `faultRates`, while the workload runs: reorganisations, node
 * outages, slow and lost replies, single nodes of a network's set lagging, forked or down, lost, delayed and expiring broadcasts, the energy provider's
 * failures, the receivers' failures and outages, and workers' power cuts (on PostgreSQL the store
 * loses its connection too: `ConnectionCuts`, drawn from this dice's stream). `heal` ends them all
 * before the service is left to settle. Each fault is recorded in the trace.
 */
export class Faults {
  private readonly perNetwork: ReadonlyArray<{ readonly step: Effect.Effect<void, never, SnapshotReader> }>
  private readonly nodeSets: ReadonlyArray<NodeSetFaults>
  private readonly receivers: ReceiverFaults
  private readonly power: PowerCuts

  constructor(private readonly world: Pick<WorldParts, "networks" | "workers" | "paths">, dice: Dice, private readonly trace: Trace) {
    this.perNetwork = world.networks.flatMap((network) => {
      const streamOf = (name: string) => dice.stream(`${name}/${network.network}`)
      return [
        new Reorgs(network, streamOf("reorg"), trace),
        new NodeFaults(network, streamOf("node"), trace),
        new BroadcastFaults(network, streamOf("broadcast"), trace),
        // Each provider its own faults from its own dice: "provider" for the first, as before there were two.
        ...network.providers.map((provider, i) => new ProviderFaults(network, provider, streamOf(i === 0 ? "provider" : "provider-b"), trace))
      ]
    })
    // Drawn after the others, from streams of their own: the faults above draw as they did before the node sets.
    this.nodeSets = world.networks.map((network) => new NodeSetFaults(network, dice.stream(`node-set/${network.network}`), trace))
    this.receivers = new ReceiverFaults(dice.stream("receiver/outages"), dice.stream("receiver/requests"), trace)
    this.power = new PowerCuts(world, dice.stream("power"), trace)
  }

  /** How a receiver answers one request. */
  readonly receiverAnswer = (request: { readonly appId: string; readonly eventId: string }): Effect.Effect<ReceiverAnswer> =>
    this.receivers.answer(request)

  /** Whether the worker dies at this checkpoint (or, at `midRoundCut`, loses power while its passes run). */
  readonly crashAt = (worker: string, point: string): Effect.Effect<boolean> => this.power.diesAt(worker, point)

  /** One step of the world's faults, between two rounds of the workload. */
  get step() {
    return Effect.gen(this, function*() {
      for (const faults of this.perNetwork) yield* faults.step
      for (const faults of this.nodeSets) yield* faults.step
      yield* this.receivers.step
      yield* this.power.step
    })
  }

  /** Every fault ends: the node answers, the provider and the receivers serve, nobody loses power; the settling runs on a healthy world. */
  get heal() {
    return Effect.gen(this, function*() {
      for (const { providers, sim } of this.world.networks) {
        yield* sim.chain.resetFaults
        for (const { book, line } of providers) {
          yield* book.reset
          line.reset()
        }
      }
      for (const faults of this.nodeSets) faults.heal()
      yield* this.receivers.heal
      yield* this.power.heal
      this.trace.record("healed")
    })
  }
}
