import { describe, expect, it } from "@effect/vitest"
import { Duration, Effect, HashMap, Logger, TestClock } from "effect"
import { makeOutageLog } from "./OutageLog.js"

const captured = () => {
  const lines: Array<{ level: string; message: unknown; annotations: Record<string, unknown> }> = []
  const logger = Logger.make(({ annotations, logLevel, message }) => {
    lines.push({ level: logLevel.label, message: Array.isArray(message) ? message[0] : message, annotations: Object.fromEntries(HashMap.toEntries(annotations)) })
  })
  return { lines, layer: Logger.replace(Logger.defaultLogger, logger) }
}

describe("OutageLog", () => {
  it.effect("an outage is one line when it begins and one when it ends, however many passes fail", () => {
    const { layer, lines } = captured()
    const outages = makeOutageLog("scanner")
    return Effect.gen(function*() {
      yield* outages.reached("nile")
      for (let i = 0; i < 5; i++) {
        yield* outages.failed("nile", i === 0 ? "connection refused" : "timeout")
        yield* TestClock.adjust(Duration.seconds(3))
      }
      yield* outages.reached("nile")
      yield* outages.reached("nile")
      expect(lines).toEqual([
        { level: "WARN", message: "scanner: node outage began", annotations: { network: "nile", reason: "connection refused" } },
        {
          level: "INFO",
          message: "scanner: node outage ended",
          annotations: { network: "nile", first_reason: "connection refused", lasted_ms: 15_000, failed_passes: 5 }
        }
      ])
    }).pipe(Effect.provide(layer))
  })

  it.effect("each network has its own outage", () => {
    const { layer, lines } = captured()
    const outages = makeOutageLog("sweeper")
    return Effect.gen(function*() {
      yield* outages.failed("nile", "down")
      yield* outages.failed("main", "down")
      yield* outages.reached("nile")
      expect(lines.map((line) => [line.message, line.annotations.network])).toEqual([
        ["sweeper: node outage began", "nile"],
        ["sweeper: node outage began", "main"],
        ["sweeper: node outage ended", "nile"]
      ])
    }).pipe(Effect.provide(layer))
  })
})
