import { expect, layer } from "@effect/vitest"
import { Effect, type Layer } from "effect"
import { OperatorAuditLog } from "./OperatorAuditLog.js"
import { OperatorTokenRepository } from "./OperatorTokenRepository.js"
import { dies } from "../testing/Defects.js"

/** What every OperatorAuditLog must do. */
export const operatorAuditLogContract = <E>(name: string, storage: Layer.Layer<OperatorAuditLog | OperatorTokenRepository, E>) =>
  layer(storage)(`OperatorAuditLog contract (${name})`, (it) => {
    it.effect("records each action with its token and lists the latest first, as recorded", () =>
      Effect.gen(function*() {
        const audit = yield* OperatorAuditLog
        const token = yield* (yield* OperatorTokenRepository).insert(new Uint8Array(32).fill(101), { kind: "token", tokenId: null, expiresAt: new Date("2031-01-01T00:00:00Z") })
        const at = new Date("2030-01-01T00:00:00.5Z")
        const first = yield* audit.record({ tokenId: token.id, action: "redeliver_event", target: "event 1", outcome: "done", at })
        const second = yield* audit.record({ tokenId: token.id, action: "pause_automation", target: "tenant 2 nile", outcome: "unchanged", at })
        expect(first).toEqual({ id: first.id, tokenId: token.id, action: "redeliver_event", target: "event 1", outcome: "done", at })
        const recent = yield* audit.recent(2)
        expect(recent).toEqual([second, first])
        expect(yield* audit.recent(1)).toEqual([second])
      }))

    it.effect("lists the latest first by ID as a number (entry 10 before entry 9)", () =>
      Effect.gen(function*() {
        const audit = yield* OperatorAuditLog
        const token = yield* (yield* OperatorTokenRepository).insert(new Uint8Array(32).fill(110), { kind: "token", tokenId: null, expiresAt: new Date("2031-01-01T00:00:00Z") })
        const entry = (n: number) => audit.record({ tokenId: token.id, action: "redeliver_event", target: `event ${n}`, outcome: "done", at: new Date("2030-01-02T00:00:00Z") })
        const first = yield* entry(0)
        let [previous, last] = [first, first]
        for (let n = 1; last.id.length === first.id.length && n < 1000; n++) [previous, last] = [last, yield* entry(n)]
        expect(yield* audit.recent(2)).toEqual([last, previous])
      }))

    it.effect("an entry recorded as started is settled once with its outcome; a second settle and an unknown ID change nothing", () =>
      Effect.gen(function*() {
        const audit = yield* OperatorAuditLog
        const token = yield* (yield* OperatorTokenRepository).insert(new Uint8Array(32).fill(102), { kind: "token", tokenId: null, expiresAt: new Date("2031-01-01T00:00:00Z") })
        const at = new Date("2030-01-02T00:00:00Z")
        const entry = yield* audit.record({ tokenId: token.id, action: "cancel_sweep", target: "sweep 9 (tenant 1 nile)", outcome: "started", at })
        expect(yield* audit.settle(entry.id, "done: cancelled")).toBe(true)
        expect(yield* audit.settle(entry.id, "refused: late")).toBe(false)
        expect(yield* audit.settle("9223372036854775806", "done")).toBe(false)
        // Written once: an entry recorded with its outcome already is never settled again.
        const finished = yield* audit.record({ tokenId: token.id, action: "pause_automation", target: "tenant 1 nile", outcome: "unchanged: off already", at })
        expect(yield* audit.settle(finished.id, "done")).toBe(false)
        expect((yield* audit.recent(2)).map((e) => e.outcome)).toEqual(["unchanged: off already", "done: cancelled"])
      }))

    it.effect("an action of an unknown token is a defect and is not listed", () =>
      Effect.gen(function*() {
        const audit = yield* OperatorAuditLog
        const before = yield* audit.recent(1000)
        expect(yield* dies(audit.record({ tokenId: "9223372036854775807", action: "x", target: "y", outcome: "done", at: new Date() }))).toBe(true)
        expect(yield* audit.recent(1000)).toEqual(before)
      }))
  })
