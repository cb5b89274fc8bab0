import { describe, expect, it } from "@effect/vitest"
import { Effect, Option } from "effect"
import { SentOrders } from "./SentOrders.js"

describe("SentOrders", () => {
  it.effect("keeps the newest entries up to its capacity; remembering again makes an entry newest", () =>
    Effect.gen(function*() {
      const sent = new SentOrders<number>(2)
      yield* sent.remember("a", () => 1)
      yield* sent.remember("b", () => 2)
      yield* sent.remember("a", (current) => Option.getOrElse(current, () => 0) + 10)
      yield* sent.remember("c", () => 3)
      expect([sent.get("a"), sent.get("b"), sent.get("c")]).toEqual([Option.some(11), Option.none(), Option.some(3)])
    }))
})
