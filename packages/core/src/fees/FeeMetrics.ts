import { Effect, Metric } from "effect"
import { bigintCounterFamily } from "../metrics/MetricFamily.js"
import { type FeeEntry, energySources } from "./FeeEntry.js"

/** Energy the booked sweeps used, by source: counted once per ledger entry, when it is booked. */
export const sweepEnergy = bigintCounterFamily(
  "collector_sweep_energy_total",
  "Energy used by booked sweeps, by source (own, delegated, rented, burned)",
  ["network", "source"],
  { source: energySources }
)

/** SUN the booked sweeps saved against burning their energy (negative entries lower it not: a counter only rises). */
export const sweepFeeSavings = bigintCounterFamily(
  "collector_sweep_fee_savings_sun_total",
  "SUN saved by booked sweeps against burning the same energy",
  ["network"]
)

/** Counts one entry just booked. A negative saving (dearer than burning) adds nothing: Prometheus counters never fall. */
export const countBooked = (entry: FeeEntry): Effect.Effect<void> =>
  Effect.all([
    ...energySources.filter((source) => entry.energy[source] > 0n).map((source) =>
      Metric.incrementBy(sweepEnergy(entry.network, source), entry.energy[source])
    ),
    ...(entry.saving > 0n ? [Metric.incrementBy(sweepFeeSavings(entry.network), entry.saving)] : [])
  ], { discard: true })
