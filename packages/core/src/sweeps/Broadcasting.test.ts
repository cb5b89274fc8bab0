import { describe, expect, it } from "@effect/vitest"
import { Duration, Effect, Fiber, TestClock } from "effect"
import { Chain, type ChainService } from "../chain/Chain.js"
import { broadcast } from "./Broadcasting.js"
import { defaultSweeperSettings } from "./SweeperSettings.js"
import { chainUnusedBy, preparedTask } from "./testing/StepFixtures.js"

const now = new Date(0)

const task = preparedTask(now, {
  status: "signed",
  transaction: { txid: "11".repeat(32), rawDataHex: "0a02", signature: "09".repeat(65), expiration: new Date(300_000), feeLimit: 7_000_000n }
})

/** A node that takes `answerAfter` to accept a broadcast; nothing else is used. */
const slowNode = (answerAfter: Duration.Duration): ChainService =>
  chainUnusedBy("broadcasting", { broadcast: () => Effect.as(Effect.sleep(answerAfter), { _tag: "Accepted" as const }) })

describe("Broadcasting", () => {
  it.effect("the first receipt look-up is counted from the node's answer, not from the pass's start", () =>
    Effect.gen(function*() {
      const settings = { ...defaultSweeperSettings, settleDelay: Duration.seconds(60) }
      const step = yield* Effect.fork(Effect.provideService(broadcast(task, now, settings), Chain, slowNode(Duration.seconds(4))))
      yield* TestClock.adjust(Duration.seconds(4))
      const result = yield* Fiber.join(step)
      expect(result.task).toMatchObject({ status: "broadcast", updatedAt: now })
      expect(result.task.nextStepAt).toEqual(new Date(4_000 + 60_000))
    }))

  it("waits 60 s by default: the block the transaction lands in, then the 19 that solidify it, at 3 s each", () => {
    expect(Duration.toMillis(defaultSweeperSettings.settleDelay)).toBe(20 * 3_000)
  })
})
