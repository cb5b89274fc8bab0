import { describe, expect, it } from "@effect/vitest"
import { Effect, TestClock } from "effect"
import { Dice } from "../Dice.js"
import { Trace } from "../Trace.js"
import { ReceiverFaults } from "./ReceiverFaults.js"

/** A trace that keeps its lines, so a test can see which faults were drawn. */
class Lines extends Trace {
  readonly lines: Array<string> = []
  override record(line: string): void {
    this.lines.push(line)
    super.record(line)
  }
}

const request = (appId: string, eventId = "e") => ({ appId, eventId })

/** Receiver faults whose first outage has been drawn: its app, its answer and how long it lasts. */
const withOutage = Effect.gen(function*() {
  const trace = new Lines()
  const faults = new ReceiverFaults(new Dice("t/outages"), new Dice("t/requests"), trace)
  yield* faults.answer(request("1"))
  yield* faults.answer(request("2"))
  while (!trace.lines.some((l) => l.startsWith("fault receiver outage"))) yield* faults.step
  const [, , , app, answer, millis] = trace.lines.find((l) => l.startsWith("fault receiver outage"))!.split(" ")
  return { faults, app: app!, other: app === "1" ? "2" : "1", answer, millis: Number(millis) }
})

const answers = (faults: ReceiverFaults, app: string, count: number, tag: string) =>
  Effect.forEach(Array.from({ length: count }, (_, i) => i), (i) => faults.answer(request(app, `${tag}${i}`)))

describe("ReceiverFaults", () => {
  it.effect("an outage answers every request of its app the same bad way until it ends; other apps are not in it", () =>
    Effect.gen(function*() {
      const { answer, app, faults, millis, other } = yield* withOutage
      expect(answer).not.toBe("ack")
      expect(new Set(yield* answers(faults, app, 20, "e"))).toEqual(new Set([answer]))
      expect((yield* answers(faults, other, 200, "o")).filter((a) => a === "ack").length).toBeGreaterThan(150)
      yield* TestClock.adjust(millis)
      expect((yield* answers(faults, app, 20, "a")).filter((a) => a === "ack").length).toBeGreaterThan(10)
    }))

  it.effect("healed, every request is acknowledged, in an outage or not", () =>
    Effect.gen(function*() {
      const { app, faults, other } = yield* withOutage
      yield* faults.heal
      expect(new Set([...(yield* answers(faults, app, 50, "h")), ...(yield* answers(faults, other, 200, "k"))])).toEqual(new Set(["ack"]))
    }))
})
