import { expect, it } from "@effect/vitest"
import type { Engine } from "@collector/core"
import { Effect, TestClock } from "effect"
import { workerEntries } from "./EngineEntries.js"

const report = (component: string, status: string, detail: string, at: number): Engine.ComponentReport => ({
  component, network: "nile", status, detail, updatedAt: new Date(at)
})

it.effect("no report at all: one `worker` entry, stopped, at the current time", () =>
  Effect.gen(function*() {
    yield* TestClock.setTime(Date.parse("2026-01-01T00:00:00Z"))
    expect(yield* workerEntries([])).toEqual([
      { component: "worker", status: "stopped", detail: "no worker has reported for this network", updated_at: "2026-01-01T00:00:00.000Z" }
    ])
  }))

it.effect("a report's state is shown with its fixed reason for 60 s, then as stale; never the component's own detail", () =>
  Effect.gen(function*() {
    const t0 = Date.parse("2026-01-01T00:00:00.250Z")
    const reports = [report("balance_sync", "degraded", "node slow", t0), report("scanner", "ok", "", t0 + 30_000)]
    yield* TestClock.setTime(t0 + 60_000)
    expect(yield* workerEntries(reports)).toEqual([
      { component: "balance_sync", status: "degraded", detail: "running with a problem; the operator has the details", updated_at: "2026-01-01T00:00:00.250Z" },
      { component: "scanner", status: "ok", detail: "running", updated_at: "2026-01-01T00:00:30.250Z" }
    ])
    yield* TestClock.adjust("1 millis")
    expect(yield* workerEntries(reports)).toEqual([
      { component: "balance_sync", status: "stale", detail: "not heard from within the last minute", updated_at: "2026-01-01T00:00:00.250Z" },
      { component: "scanner", status: "ok", detail: "running", updated_at: "2026-01-01T00:00:30.250Z" }
    ])
    yield* TestClock.adjust("10 minutes")
    expect((yield* workerEntries(reports)).map((e) => [e.status, e.detail])).toEqual([
      ["stale", "not heard from within the last minute"],
      ["stale", "not heard from within the last minute"]
    ])
  }))
