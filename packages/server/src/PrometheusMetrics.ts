import { Context, Effect, Layer, Metric, type MetricKey, type MetricKeyType, type MetricPair, MetricState, Option } from "effect"
import { collectDefaultMetrics, Registry } from "prom-client"

type Labels = Record<string, string>
interface Sample {
  readonly metricName?: string
  readonly labels: Labels
  readonly value: number
}
interface Exported {
  readonly help: string
  readonly type: "counter" | "gauge" | "histogram" | "summary"
  readonly values: ReadonlyArray<Sample>
}

const labelsOf = (key: MetricKey.MetricKey<MetricKeyType.MetricKeyType.Untyped>): Labels =>
  Object.fromEntries(key.tags.map((tag) => [tag.key, tag.value]))

const bound = (value: number) => (value === Number.POSITIVE_INFINITY ? "+Inf" : String(value))

/** One labelled member of an Effect metric as Prometheus samples, and the family's type. */
const samplesOf = (pair: MetricPair.MetricPair.Untyped): { readonly type: Exported["type"]; readonly samples: ReadonlyArray<Sample> } | undefined => {
  const name = pair.metricKey.name
  const labels = labelsOf(pair.metricKey)
  const state = pair.metricState
  if (MetricState.isCounterState(state)) return { type: "counter", samples: [{ labels, value: Number(state.count) }] }
  if (MetricState.isGaugeState(state)) return { type: "gauge", samples: [{ labels, value: Number(state.value) }] }
  if (MetricState.isHistogramState(state)) {
    // Effect's buckets are cumulative already and end with the infinite one, as Prometheus's.
    return {
      type: "histogram",
      samples: [
        ...state.buckets.map(([le, count]) => ({ metricName: `${name}_bucket`, labels: { ...labels, le: bound(le) }, value: count })),
        { metricName: `${name}_sum`, labels, value: state.sum },
        { metricName: `${name}_count`, labels, value: state.count }
      ]
    }
  }
  if (MetricState.isSummaryState(state)) {
    return {
      type: "summary",
      samples: [
        ...state.quantiles.flatMap(([quantile, value]) =>
          Option.isSome(value) ? [{ labels: { ...labels, quantile: String(quantile) }, value: value.value }] : []
        ),
        { metricName: `${name}_sum`, labels, value: state.sum },
        { metricName: `${name}_count`, labels, value: state.count }
      ]
    }
  }
  if (MetricState.isFrequencyState(state)) {
    return { type: "counter", samples: [...state.occurrences].map(([word, count]) => ({ labels: { ...labels, key: word }, value: count })) }
  }
  return undefined
}

/** Effect's registry, grouped by metric name: one Prometheus family per name. */
const effectFamilies = (): Map<string, Exported> => {
  const families = new Map<string, { help: string; type: Exported["type"]; values: Array<Sample> }>()
  for (const pair of Metric.unsafeSnapshot()) {
    const exported = samplesOf(pair)
    if (exported === undefined) continue
    const name = pair.metricKey.name
    let family = families.get(name)
    if (family === undefined) {
      family = { help: Option.getOrElse(pair.metricKey.description, () => name), type: exported.type, values: [] }
      families.set(name, family)
    }
    family.values.push(...exported.samples)
  }
  return families
}

/**
 * This process's metrics in Prometheus's text format: every metric of Effect's registry (what the
 * core, the node adapter and the HTTP server record with `Metric`) and the Node runtime's own
 * (prom-client's default metrics: CPU, memory, heap, event-loop lag, GC, handles, file
 * descriptors). prom-client writes the text; Effect's metrics are read at each scrape, each name
 * registered with it once as a family whose values are that scrape's snapshot.
 */
export class PrometheusMetrics extends Context.Tag("@collector/server/PrometheusMetrics")<
  PrometheusMetrics,
  { readonly contentType: string; readonly text: Effect.Effect<string> }
>() {
  static readonly layer = Layer.sync(PrometheusMetrics, () => {
    const registry = new Registry()
    collectDefaultMetrics({ register: registry })
    let current = new Map<string, Exported>()
    // What prom-client asks of a registered metric: its name, and its family at the scrape.
    const family = (name: string) => ({
      name,
      get: async () => {
        const { help, type, values } = current.get(name) ?? { help: name, type: "gauge", values: [] }
        return { name, help, type, values, aggregator: "sum" }
      }
    })
    return {
      contentType: registry.contentType,
      text: Effect.promise(() => {
        current = effectFamilies()
        for (const name of current.keys()) {
          if (registry.getSingleMetric(name) === undefined) registry.registerMetric(family(name) as unknown as Parameters<typeof registry.registerMetric>[0])
        }
        return registry.metrics()
      })
    }
  })
}
