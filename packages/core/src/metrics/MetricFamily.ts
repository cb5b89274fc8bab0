import { Metric, MetricBoundaries, MetricKey, MetricLabel, type MetricKeyType } from "effect"

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
export const counterFamily = (name: string, description: string, labels: ReadonlyArray<string>) =>
  metricFamily(MetricKey.counter(name, { description, incremental: true }), labels)

/** A counter of bigint amounts (SUN), for sums that are money. */
export const bigintCounterFamily = (name: string, description: string, labels: ReadonlyArray<string>) =>
  metricFamily(MetricKey.counter(name, { description, bigint: true, incremental: true }), labels)

export const gaugeFamily = (name: string, description: string, labels: ReadonlyArray<string>) =>
  metricFamily(MetricKey.gauge(name, { description }), labels)

/** A histogram with the given bucket bounds (an infinite bucket is added). */
export const histogramFamily = (name: string, description: string, boundaries: ReadonlyArray<number>, labels: ReadonlyArray<string>) =>
  metricFamily(MetricKey.histogram(name, MetricBoundaries.fromIterable(boundaries), description), labels)
