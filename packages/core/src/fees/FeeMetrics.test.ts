import { describe, expect, it } from "@effect/vitest"
import { Effect, Metric } from "effect"
import { primeCounters } from "../metrics/MetricFamily.js"
import { sweepEnergy, sweepFeeSavings } from "./FeeMetrics.js"

describe("fee metrics", () => {
  it.effect("are on the registry at 0 for every source of each network primed, before any entry is booked", () =>
    Effect.gen(function*() {
      // A network no other test counts on: its series exist only if primed.
      yield* primeCounters({ network: ["fees-primed"] })
      const names = new Map((yield* Metric.snapshot).map((pair) => {
        const labels = [...pair.metricKey.tags].map((t) => `${t.key}=${t.value}`).sort().join(",")
        return [`${pair.metricKey.name}{${labels}}`, (pair.metricState as { readonly count?: bigint }).count]
      }))
      for (const name of [
        "collector_sweep_energy_total{network=fees-primed,source=own}",
        "collector_sweep_energy_total{network=fees-primed,source=delegated}",
        "collector_sweep_energy_total{network=fees-primed,source=rented}",
        "collector_sweep_energy_total{network=fees-primed,source=burned}",
        "collector_sweep_fee_savings_sun_total{network=fees-primed}"
      ]) expect(names.get(name), name).toBe(0n)
      expect([sweepEnergy, sweepFeeSavings].every((f) => f.labels.includes("network"))).toBe(true)
    }))
})
