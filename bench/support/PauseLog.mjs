// Loaded with `--import` into a server under a latency benchmark (plain JavaScript: it loads before
// tsx). Records every garbage-collection pause and every stretch of 5 ms or more in which the event
// loop ran no timer, as wall-clock intervals, one JSON line each in `$PAUSE_LOG_DIR/pauses-<pid>.jsonl`,
// so the benchmark can set each slow request beside what its server was doing (bench/support/TailBreakdown.ts).
import { appendFileSync } from "node:fs"
import { constants, performance, PerformanceObserver } from "node:perf_hooks"

const directory = process.env.PAUSE_LOG_DIR
if (directory !== undefined && directory !== "") {
  const file = `${directory}/pauses-${process.pid}.jsonl`
  const kinds = {
    [constants.NODE_PERFORMANCE_GC_MINOR]: "scavenge",
    [constants.NODE_PERFORMANCE_GC_MAJOR]: "mark-compact",
    [constants.NODE_PERFORMANCE_GC_INCREMENTAL]: "incremental marking",
    [constants.NODE_PERFORMANCE_GC_WEAKCB]: "weak callbacks"
  }
  let lines = []
  const record = (kind, at, ms) => lines.push(JSON.stringify({ kind, at: performance.timeOrigin + at, ms }))
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) record(kinds[entry.detail?.kind] ?? "gc", entry.startTime, entry.duration)
  }).observe({ entryTypes: ["gc"] })
  // A timer every 2 ms: a late tick means the loop was busy (requests, collections) that long.
  const tick = 2
  let last = performance.now()
  setInterval(() => {
    const now = performance.now()
    const late = now - last - tick
    if (late >= 5) record("loop busy", last + tick, late)
    last = now
  }, tick).unref()
  setInterval(() => {
    if (lines.length === 0) return
    appendFileSync(file, lines.join("\n") + "\n")
    lines = []
  }, 500).unref()
}
