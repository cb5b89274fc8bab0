import { describe, expect, it } from "@effect/vitest"
import { Effect, Metric } from "effect"
import { depositsBooked, depositsIgnored, scanBlocks } from "../scanning/ScanMetrics.js"
import { sweepFees, sweepsFinished } from "../sweeps/SweepMetrics.js"
import { webhookAttempts } from "../notifications/DeliveryMetrics.js"
import { primeCounters } from "./MetricFamily.js"

/** The series on the registry now: `name{label=value,...}`, labels sorted, with their values. */
const series = Effect.map(Metric.snapshot, (pairs) =>
  new Map<string, number | bigint | undefined>(pairs.map((pair) => {
    const labels = [...pair.metricKey.tags].map((t) => `${t.key}=${t.value}`).sort().join(",")
    const state = pair.metricState as { readonly count?: number | bigint }
    return [`${pair.metricKey.name}{${labels}}`, state.count]
  })))

describe("primeCounters", () => {
  it.effect("puts every counter with closed labels on the registry at 0 for each network given, before any event", () =>
    Effect.gen(function*() {
      // A network no other test in this file counts on: its series exist only if primed.
      yield* primeCounters({ network: ["primed-net"] })
      const now = yield* series
      // Expected series written out by hand from the contract of each counter.
      for (const name of [
        "collector_deposits_booked_total{event_type=deposit.confirmed,network=primed-net}",
        "collector_deposits_booked_total{event_type=deposit.reverted,network=primed-net}",
        "collector_deposits_ignored_total{network=primed-net,reason=zero}",
        "collector_deposits_ignored_total{network=primed-net,reason=below_minimum}",
        "collector_scan_blocks_total{network=primed-net}",
        "collector_sweeps_finished_total{network=primed-net,status=succeeded}",
        "collector_sweeps_finished_total{network=primed-net,status=failed}",
        "collector_sweeps_finished_total{network=primed-net,status=cancelled}",
        "collector_webhook_attempts_total{network=primed-net,outcome=worker_fault}",
        "collector_sweep_frozen_wallets_total{network=primed-net,stage=preparation}"
      ]) {
        expect(now.has(name), name).toBe(true)
        expect(Number(now.get(name))).toBe(0)
      }
      expect(now.get("collector_sweep_fees_sun_total{kind=energy_rental,network=primed-net}")).toBe(0n)
      // Priming again after events leaves what was counted.
      yield* Metric.increment(sweepsFinished("primed-net", "failed"))
      yield* primeCounters({ network: ["primed-net"] })
      expect((yield* series).get("collector_sweeps_finished_total{network=primed-net,status=failed}")).toBe(1)
      // (The families are imported so that they are defined, as the worker's modules define them.)
      expect([depositsBooked, depositsIgnored, scanBlocks, sweepFees, webhookAttempts].every((f) => f.labels.includes("network"))).toBe(true)
    }))
})
