import { Metrics } from "@collector/core"
import { describe, expect, it } from "@effect/vitest"
import { Effect, Metric } from "effect"
import { PrometheusMetrics } from "./PrometheusMetrics.js"

const scrape = Effect.flatMap(PrometheusMetrics, (metrics) => metrics.text).pipe(Effect.provide(PrometheusMetrics.layer))

/** The sample lines of one family (no comments). */
const samples = (text: string, name: string) => text.split("\n").filter((line) => line.startsWith(`${name}{`) || line.startsWith(`${name} `))

describe("PrometheusMetrics", () => {
  it.effect("Effect's metrics in Prometheus text: counters, gauges, bigint counters and histograms with their labels, HELP and TYPE", () =>
    Effect.gen(function*() {
      const requests = Metrics.counterFamily("test_export_requests_total", "Requests \"asked\"", ["route", "status"])
      const lag = Metrics.gaugeFamily("test_export_lag_blocks", "Lag", ["network"])
      const fees = Metrics.bigintCounterFamily("test_export_fees_sun_total", "Fees", ["kind"])
      const seconds = Metrics.histogramFamily("test_export_seconds", "Time", [0.1, 1], ["route"])
      yield* Metric.incrementBy(requests("GET /open/v1/wallets/:id", "200"), 2)
      yield* Metric.increment(requests("unmatched", "404"))
      yield* Metric.set(lag("nile"), 3)
      yield* Metric.incrementBy(fees("network"), 12_345_678_901_234n)
      for (const value of [0.05, 0.5, 5]) yield* Metric.update(seconds("GET /healthz"), value)
      const text = yield* scrape
      expect(text).toContain("# HELP test_export_requests_total Requests \"asked\"\n# TYPE test_export_requests_total counter")
      expect(samples(text, "test_export_requests_total")).toEqual([
        "test_export_requests_total{route=\"GET /open/v1/wallets/:id\",status=\"200\"} 2",
        "test_export_requests_total{route=\"unmatched\",status=\"404\"} 1"
      ])
      expect(text).toContain("# TYPE test_export_lag_blocks gauge\ntest_export_lag_blocks{network=\"nile\"} 3")
      expect(samples(text, "test_export_fees_sun_total")).toEqual(["test_export_fees_sun_total{kind=\"network\"} 12345678901234"])
      expect(text).toContain("# TYPE test_export_seconds histogram")
      expect([...samples(text, "test_export_seconds_bucket"), ...samples(text, "test_export_seconds_sum"), ...samples(text, "test_export_seconds_count")]).toEqual([
        "test_export_seconds_bucket{route=\"GET /healthz\",le=\"0.1\"} 1",
        "test_export_seconds_bucket{route=\"GET /healthz\",le=\"1\"} 2",
        "test_export_seconds_bucket{route=\"GET /healthz\",le=\"+Inf\"} 3",
        "test_export_seconds_sum{route=\"GET /healthz\"} 5.55",
        "test_export_seconds_count{route=\"GET /healthz\"} 3"
      ])
    }))

  it.effect("the Node runtime's own metrics: CPU, memory, heap, event-loop lag, GC", () =>
    Effect.gen(function*() {
      const text = yield* scrape
      for (const name of ["process_cpu_seconds_total", "process_resident_memory_bytes", "nodejs_heap_size_used_bytes", "nodejs_eventloop_lag_seconds", "nodejs_gc_duration_seconds"]) {
        expect(text).toContain(`# TYPE ${name} `)
      }
    }))

  it.effect("a family is read afresh at every scrape", () =>
    Effect.gen(function*() {
      const counter = Metrics.counterFamily("test_export_moving_total", "Moves", ["network"])
      const metrics = yield* Effect.provide(PrometheusMetrics, PrometheusMetrics.layer)
      yield* Metric.increment(counter("nile"))
      expect(samples(yield* metrics.text, "test_export_moving_total")).toEqual(["test_export_moving_total{network=\"nile\"} 1"])
      yield* Metric.increment(counter("nile"))
      expect(samples(yield* metrics.text, "test_export_moving_total")).toEqual(["test_export_moving_total{network=\"nile\"} 2"])
    }))
})
