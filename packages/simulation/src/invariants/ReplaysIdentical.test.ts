import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import type { WorldParts } from "../World.js"
import { conflictAnswer, WorkloadLedger } from "../workload/WorkloadLedger.js"
import { replaysIdentical } from "./ReplaysIdentical.js"

const worldWith = (ledger: WorkloadLedger) => ({ ledger }) as unknown as WorldParts

describe("ReplaysIdentical", () => {
  it.effect("passes identical replays and refused conflicts, reports any other answer with both figures", () =>
    Effect.gen(function*() {
      const ledger = new WorkloadLedger()
      const first = `ok {"id":"1"}`
      ledger.recordReplay({ kind: "replay", operation: "wallets.create", requestId: "req-1", expected: first, actual: first })
      ledger.recordReplay({ kind: "conflict", operation: "sweeps.create", requestId: "req-2", expected: conflictAnswer, actual: conflictAnswer })
      expect(yield* replaysIdentical(worldWith(ledger))).toEqual([])

      ledger.recordReplay({ kind: "concurrent", operation: "wallets.create", requestId: "req-3", expected: first, actual: `ok {"id":"2"}` })
      ledger.recordReplay({ kind: "conflict", operation: "settings.webhook", requestId: "req-4", expected: conflictAnswer, actual: first })
      expect(yield* replaysIdentical(worldWith(ledger))).toEqual([
        `concurrent of wallets.create req-3 answered ok {"id":"2"}, not ok {"id":"1"}`,
        `conflict of settings.webhook req-4 answered ok {"id":"1"}, not failed IdempotencyConflict`
      ])
    }))
})
