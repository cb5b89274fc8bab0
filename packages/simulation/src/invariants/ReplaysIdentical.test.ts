import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import type { WorldParts } from "../WorldParts.js"
import { conflictAnswer, WorkloadLedger } from "../workload/WorkloadLedger.js"
import { replaysIdentical } from "./ReplaysIdentical.js"

const worldWith = (ledger: WorkloadLedger) => ({ ledger }) as unknown as WorldParts

const first = `200 {"code":0,"message":"","data":{"id":"1"}}`
const conflict = `409 {"code":409,"message":"conflict: idempotency key already used with another request","error_code":"IDEMPOTENCY_CONFLICT"}`
const taken = `409 {"code":409,"message":"custom_id taken","error_code":"BUSINESS_CONFLICT"}`

describe("ReplaysIdentical", () => {
  it.effect("passes identical replays and conflicts refused as the contract says, reports any other answer with both figures", () =>
    Effect.gen(function*() {
      const ledger = new WorkloadLedger()
      ledger.recordReplay({ kind: "replay", operation: "wallets.create", requestId: "req-1", expected: first, actual: first })
      ledger.recordReplay({ kind: "conflict", operation: "sweeps.create", requestId: "req-2", expected: conflictAnswer, actual: conflict })
      expect(yield* replaysIdentical(worldWith(ledger))).toEqual([])

      ledger.recordReplay({ kind: "concurrent", operation: "wallets.create", requestId: "req-3", expected: first, actual: `200 {"code":0,"message":"","data":{"id":"2"}}` })
      ledger.recordReplay({ kind: "conflict", operation: "settings.webhook", requestId: "req-4", expected: conflictAnswer, actual: first })
      ledger.recordReplay({ kind: "replay", operation: "wallets.create", requestId: "req-5", expected: first, actual: taken })
      ledger.recordReplay({ kind: "conflict", operation: "wallets.create", requestId: "req-6", expected: conflictAnswer, actual: taken })
      expect(yield* replaysIdentical(worldWith(ledger))).toEqual([
        `concurrent of wallets.create req-3 answered 200 {"code":0,"message":"","data":{"id":"2"}}, not ${first}`,
        `conflict of settings.webhook req-4 answered ${first}, not 409 IDEMPOTENCY_CONFLICT`,
        `replay of wallets.create req-5 answered ${taken}, not ${first}`,
        `conflict of wallets.create req-6 answered ${taken}, not 409 IDEMPOTENCY_CONFLICT`
      ])
    }))
})
