import { Effect, Metric, MetricBoundaries, MetricKey, MetricLabel, type MetricKeyType } from "effect"

type Member<Type extends MetricKeyType.MetricKeyType<any, any>> = Metric.Metric<
  Type,
  MetricKeyType.MetricKeyType.InType<Type>,
  MetricKeyType.MetricKeyType.OutType<Type>
>

/**
 * A metric with named labels: `family(...values)` is its member for those label values (in the
 * order of `labels`). Each member is made once and kept, so an update costs one map look-up: a
 * member made on each call (`Metric.tagged`) would build a key, hash it and merge label arrays on
 * every update, and the API's request path and the scanner's block loop update on every request
 * and block. Label values must come from a small set (a network, a route template, an outcome),
 * never from a request: every member lives as long as the process.
 */
export interface MetricFamily<Type extends MetricKeyType.MetricKeyType<any, any>> {
  (...values: ReadonlyArray<string>): Member<Type>
  readonly key: MetricKey.MetricKey<Type>
  readonly labels: ReadonlyArray<string>
}

/**
 * The extra labels of an unsafe update made outside a fiber (`member.unsafeUpdate(1, noExtraLabels)`):
 * none, in one shared array rather than a new one per update.
 */
export const noExtraLabels: ReadonlyArray<MetricLabel.MetricLabel> = []

export const metricFamily = <Type extends MetricKeyType.MetricKeyType<any, any>>(
  key: MetricKey.MetricKey<Type>,
  labels: ReadonlyArray<string>
): MetricFamily<Type> => {
  const members = new Map<string, Member<Type>>()
  const family = (...values: ReadonlyArray<string>): Member<Type> => {
    const id = values.length === 1 ? values[0]! : values.join("\u0000")
    let member = members.get(id)
    if (member === undefined) {
      const tags = labels.map((label, i) => MetricLabel.make(label, values[i] ?? ""))
      member = Metric.fromMetricKey(MetricKey.taggedWithLabels(key, tags))
      members.set(id, member)
    }
    return member
  }
  return Object.assign(family, { key, labels })
}

/** A counter that only goes up (what Prometheus calls a counter); its name ends in `_total`. */
export const counterFamily = (name: string, description: string, labels: ReadonlyArray<string>, known: KnownLabelValues = {}) =>
  primed(metricFamily(MetricKey.counter(name, { description, incremental: true }), labels), known, 0)

/** A counter of bigint amounts (SUN), for sums that are money. */
export const bigintCounterFamily = (name: string, description: string, labels: ReadonlyArray<string>, known: KnownLabelValues = {}) =>
  primed(metricFamily(MetricKey.counter(name, { description, bigint: true, incremental: true }), labels), known, 0n)

/**
 * The values a counter's labels can take, where the set is closed (an outcome, a status, a
 * reason); the labels left out (a network) are given to `primeCounters` by the process.
 */
export type KnownLabelValues = Readonly<Record<string, ReadonlyArray<string>>>

const primeable: Array<{ readonly family: MetricFamily<any>; readonly known: KnownLabelValues; readonly zero: number | bigint }> = []

const primed = <F extends MetricFamily<any>>(family: F, known: KnownLabelValues, zero: number | bigint): F => {
  primeable.push({ family, known, zero })
  return family
}

/** Every combination of the label values, in label order. */
const combinations = (values: ReadonlyArray<ReadonlyArray<string>>): ReadonlyArray<ReadonlyArray<string>> =>
  values.reduce<ReadonlyArray<ReadonlyArray<string>>>((acc, options) => acc.flatMap((prefix) => options.map((v) => [...prefix, v])), [[]])

/**
 * Puts every counter whose label values are all known (declared with the counter, or given here,
 * `{ network: ["nile"] }`) on the registry at 0, so `/metrics` shows each series from the start:
 * a rate or an absence alert over a series that appears only with its first event cannot fire
 * until then (Prometheus's advice for labelled metrics). Counters with an open label (a route, a
 * node endpoint) appear with their first event.
 */
export const primeCounters = (given: KnownLabelValues): Effect.Effect<void> =>
  Effect.sync(() => {
    for (const { family, known, zero } of primeable) {
      const values = family.labels.map((label) => known[label] ?? given[label])
      if (values.some((v) => v === undefined)) continue
      for (const combination of combinations(values as ReadonlyArray<ReadonlyArray<string>>)) {
        family(...combination).unsafeUpdate(zero as never, noExtraLabels)
      }
    }
  })

export const gaugeFamily = (name: string, description: string, labels: ReadonlyArray<string>) =>
  metricFamily(MetricKey.gauge(name, { description }), labels)

/** A histogram with the given bucket bounds (an infinite bucket is added). */
export const histogramFamily = (name: string, description: string, boundaries: ReadonlyArray<number>, labels: ReadonlyArray<string>) =>
  metricFamily(MetricKey.histogram(name, MetricBoundaries.fromIterable(boundaries), description), labels)
