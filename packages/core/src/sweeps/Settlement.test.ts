import { describe, expect, it } from "@effect/vitest"
import { Duration, Effect, Option } from "effect"
import { Chain, type ChainService } from "../chain/Chain.js"
import type { BlockRef, Receipt } from "../chain/ChainModel.js"
import type { ChainView } from "./ChainView.js"
import { settle } from "./Settlement.js"
import { defaultSweeperSettings } from "./SweeperSettings.js"
import type { SweepTask } from "./SweepTask.js"
import { chainUnusedBy, preparedTask } from "./testing/StepFixtures.js"

const broadcastAt = new Date("2026-11-27T12:00:00.000Z")
const now = new Date(broadcastAt.getTime() + 5_000)
const settings = { ...defaultSweeperSettings, settleInterval: Duration.millis(300) }

const task = preparedTask(broadcastAt, {
  status: "broadcast",
  nextStepAt: now,
  transaction: {
    txid: "11".repeat(32),
    rawDataHex: "0a02",
    signature: "09".repeat(65),
    expiration: new Date(broadcastAt.getTime() + 300_000),
    feeLimit: 7_000_000n
  }
})

const block = (number: bigint, timestamp: Date): BlockRef => ({
  number,
  hash: number.toString(16).padStart(64, "0"),
  parentHash: (number - 1n).toString(16).padStart(64, "0"),
  timestamp
})

/** The pass's view with its solidified block `offset` ms from the broadcast. */
const viewWithSolidified = (offset: number): ChainView => ({
  head: block(1_000_019n, new Date(broadcastAt.getTime() + offset + 57_000)),
  solidified: block(1_000_000n, new Date(broadcastAt.getTime() + offset)),
  parameters: { energyFee: 100n, bandwidthFee: 1000n, freeBandwidthPerDay: 600n, activationFee: 1_100_000n }
})

const receipt: Receipt = {
  txid: "11".repeat(32),
  blockNumber: 999_999n,
  blockTime: new Date(broadcastAt.getTime() + 3_000),
  result: "SUCCESS",
  fee: 0n,
  energyFee: 0n,
  energyUsage: 64_285n,
  bandwidthFee: 0n,
  bandwidthUsage: 345n
}

/** A solidified node that knows the receipt, counting the look-ups. */
const nodeWithReceipt = (lookups: Array<string>): ChainService =>
  chainUnusedBy("settlement", { receipt: (txid) => Effect.sync(() => lookups.push(txid)).pipe(Effect.as(Option.some(receipt))) })

const settling = (which: SweepTask, view: ChainView, lookups: Array<string>) =>
  Effect.provideService(settle(which, now, settings, view), Chain, nodeWithReceipt(lookups))

describe("Settlement", () => {
  it.effect("no receipt look-up while the solidified chain is not past the broadcast; the next look when it could be", () =>
    Effect.gen(function*() {
      const lookups: Array<string> = []
      const result = yield* settling(task, viewWithSolidified(-2_000), lookups)
      expect(lookups).toEqual([])
      expect(result).toMatchObject({ _tag: "Save", task: { status: "broadcast", updatedAt: broadcastAt, version: 3 } })
      expect(result.task.nextStepAt).toEqual(new Date(now.getTime() + 2_000))
      // At the broadcast's very time, not yet: it lands in a later block.
      expect((yield* settling(task, viewWithSolidified(0), lookups)).task.nextStepAt).toEqual(new Date(now.getTime() + 300))
      expect(lookups).toEqual([])
    }))

  it.effect("looks once the solidified chain is past the broadcast, and settles from the receipt", () =>
    Effect.gen(function*() {
      const lookups: Array<string> = []
      const result = yield* settling(task, viewWithSolidified(1), lookups)
      expect(lookups).toEqual([task.transaction!.txid])
      expect(result).toMatchObject({ _tag: "Finish", task: { status: "succeeded", actualFee: 0n } })
    }))

  it.effect("once the bytes are due to be offered again, looks (and offers) at the same pace as before, whatever the solidified block", () =>
    Effect.gen(function*() {
      const lookups: Array<string> = []
      const late = new Date(broadcastAt.getTime() + Duration.toMillis(settings.rebroadcastInterval))
      yield* Effect.provideService(settle(task, late, settings, viewWithSolidified(-2_000)), Chain, nodeWithReceipt(lookups))
      expect(lookups).toEqual([task.transaction!.txid])
      // Just before it, the wait ends when the offer is due, however far the solidified chain is behind.
      const early = new Date(late.getTime() - 1_000)
      const waiting = yield* Effect.provideService(settle(task, early, settings, viewWithSolidified(-30_000)), Chain, nodeWithReceipt(lookups))
      expect(waiting.task.nextStepAt).toEqual(late)
      expect(lookups).toHaveLength(1)
    }))

  it.effect("a broadcast whose answer was lost is looked up whatever the solidified block: the node may have had it long before", () =>
    Effect.gen(function*() {
      const lookups: Array<string> = []
      const result = yield* settling({ ...task, status: "unknown" }, viewWithSolidified(-2_000), lookups)
      expect(lookups).toEqual([task.transaction!.txid])
      expect(result.task.status).toBe("succeeded")
    }))
})
