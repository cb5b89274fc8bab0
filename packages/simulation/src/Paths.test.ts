import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { runOne } from "./Simulation.js"
import { repeatedOnServer } from "./testing/MemoryOnly.js"

/** Seeds 1 to this reach every money path below (one of them a long run: `longRunEvery`). */
const pathSeeds = 8

/**
 * The money paths the workload and the faults must reach, as the workload summary counts them
 * (`PathCounts`, `workloadSummary`); each stands for a way money moves that a defect could break.
 */
const paths: ReadonlyArray<RegExp> = [
  /^collection\.own-wallet$/,
  /^collection\.other-tenant$/,
  /^into\.own-wallet:succeeded$/,
  /^into\.other-tenant:succeeded$/,
  /^tx\.several-usdt-logs$/,
  /^tx\.same-wallet-twice$/,
  /^tx\.several-contracts$/,
  /^provider\.order-lost-before\.[\w-]+$/,
  /^provider\.find-down\.[\w-]+$/,
  /^provider\.failover$/,
  // The node faults the failover must see through, each met by a call (PathCounts from SimulatedNode).
  /^node\.lagging\.[\w-]+$/,
  /^node\.forked\.[\w-]+$/,
  /^node\.down\.[\w-]+$/,
  /^crash\.after-order$/,
  /^deposit\.solid-in-run$/,
  /^deposit\.solidified-rule-in-run$/,
  /^stake\.delegated:succeeded$/,
  /^stake\.short:\w+$/
]

describe("the workload's reach", () => {
  it.effect.skipIf(repeatedOnServer)(`reaches every money path within seeds 1 to ${pathSeeds}`, () =>
    Effect.gen(function*() {
      const reached = new Set<string>()
      for (let seed = 1; seed <= pathSeeds; seed++) {
        const { workload } = yield* runOne(seed)
        for (const item of workload.split(" ")) reached.add(item.split("=")[0]!)
      }
      const missing = paths.filter((path) => ![...reached].some((name) => path.test(name)))
      expect(missing.map(String)).toEqual([])
    }), 600_000)
})
