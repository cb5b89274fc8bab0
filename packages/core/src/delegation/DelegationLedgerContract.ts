import { expect, layer } from "@effect/vitest"
import { Effect, Exit, type Layer, Option } from "effect"
import { DelegationExists, DelegationLedger, DelegationMoved } from "./DelegationLedger.js"
import type { EnergyDelegation } from "./EnergyDelegation.js"
import type { SweepTaskId } from "../sweeps/SweepTask.js"

const at = (iso: string) => new Date(iso)
const txid = (digit: string) => digit.repeat(64)

/** A planned delegation of task `id`; addresses are the simulator's test wallets, amounts hand-picked. */
const planned = (id: string, overrides: Partial<EnergyDelegation> = {}): EnergyDelegation => ({
  taskId: id as SweepTaskId,
  network: "nile",
  owner: "TJRabPrwbZy45sbavfcjinPJC18kjpRTv8",
  receiver: "TXLAQ63Xg1NAzckPwKHvzw7CSEmLMEqcdj",
  energy: 64_285n,
  balance: 6_429_000_000n,
  state: "planned",
  delegateTxid: txid("a"),
  delegateExpiration: at("2026-03-01T00:01:00.123Z"),
  reclaimTxid: null,
  reclaimExpiration: null,
  createdAt: at("2026-03-01T00:00:00.001Z"),
  updatedAt: at("2026-03-01T00:00:00.001Z"),
  ...overrides
})

/**
 * What every DelegationLedger must do. The storage is shared by the tests of one run, so each
 * test uses its own task IDs and reads back only the rows it wrote.
 */
export const delegationLedgerContract = <E>(name: string, storage: Layer.Layer<DelegationLedger, E>) =>
  layer(storage)(`DelegationLedger contract (${name})`, (it) => {
    it.effect("records a delegation as planned and reads it back exactly", () =>
      Effect.gen(function*() {
        const ledger = yield* DelegationLedger
        const row = planned("9001", { balance: 90_000_000_000_000_000n, energy: 130_285n })
        expect(yield* ledger.plan(row)).toEqual(row)
        expect(yield* ledger.find("9001" as SweepTaskId)).toEqual(Option.some(row))
        expect(yield* ledger.find("9999999" as SweepTaskId)).toEqual(Option.none())
      }))

    it.effect("never plans a second delegation for one task, whatever its figures", () =>
      Effect.gen(function*() {
        const ledger = yield* DelegationLedger
        const first = planned("9011")
        yield* ledger.plan(first)
        const second = yield* Effect.exit(ledger.plan(planned("9011", { balance: 1_000_000n, delegateTxid: txid("b"), receiver: "TVjsyZ7fYF3qLF6BQgPmTEZy1xrNNyVAAA" })))
        expect(second).toEqual(Exit.fail(new DelegationExists({ existing: first })))
        expect(yield* ledger.find("9011" as SweepTaskId)).toEqual(Option.some(first))
      }))

    it.effect("moves by compare-and-set on state and txids: a stale copy is refused with the row as stored", () =>
      Effect.gen(function*() {
        const ledger = yield* DelegationLedger
        const first = yield* ledger.plan(planned("9021"))
        const sent = { ...first, state: "broadcast" as const, updatedAt: at("2026-03-01T00:00:03Z") }
        expect(yield* ledger.update(first, sent)).toEqual(sent)
        // A worker still holding the planned row loses.
        const late = yield* Effect.exit(ledger.update(first, { ...first, delegateTxid: txid("c") }))
        expect(late).toEqual(Exit.fail(new DelegationMoved({ current: Option.some(sent) })))
        const confirmed = { ...sent, state: "confirmed" as const }
        yield* ledger.update(sent, confirmed)
        const reclaiming = { ...confirmed, state: "reclaim_broadcast" as const, reclaimTxid: txid("d"), reclaimExpiration: at("2026-03-01T00:10:00Z") }
        yield* ledger.update(confirmed, reclaiming)
        // A rebuilt reclaim keeps the state but changes the txid: the old one no longer matches.
        const rebuilt = { ...reclaiming, reclaimTxid: txid("e"), reclaimExpiration: at("2026-03-01T00:20:00Z") }
        yield* ledger.update(reclaiming, rebuilt)
        expect(Exit.isFailure(yield* Effect.exit(ledger.update(reclaiming, { ...reclaiming, state: "reclaimed" })))).toBe(true)
        const done = { ...rebuilt, state: "reclaimed" as const }
        yield* ledger.update(rebuilt, done)
        expect(yield* ledger.find("9021" as SweepTaskId)).toEqual(Option.some(done))
        // An unknown task has nothing to move.
        expect(yield* Effect.exit(ledger.update(planned("9029"), planned("9029")))).toEqual(Exit.fail(new DelegationMoved({ current: Option.none() })))
      }))

    it.effect("lists the network's delegations not yet reclaimed, oldest first, up to the limit", () =>
      Effect.gen(function*() {
        const ledger = yield* DelegationLedger
        yield* ledger.plan(planned("9031", { network: "main", createdAt: at("2026-04-01T00:00:02Z") }))
        yield* ledger.plan(planned("9032", { network: "main", createdAt: at("2026-04-01T00:00:01Z") }))
        const returned = yield* ledger.plan(planned("9033", { network: "main", createdAt: at("2026-04-01T00:00:00Z") }))
        yield* ledger.update(returned, { ...returned, state: "reclaimed" })
        yield* ledger.plan(planned("9034", { network: "nile", createdAt: at("2026-04-01T00:00:00Z") }))
        const mine = (rows: ReadonlyArray<EnergyDelegation>) => rows.filter((row) => ["9031", "9032", "9033", "9034"].includes(row.taskId)).map((row) => row.taskId)
        expect(mine(yield* ledger.open("main", 100))).toEqual(["9032", "9031"])
        // Only this test writes to main.
        expect((yield* ledger.open("main", 1)).map((row) => row.taskId)).toEqual(["9032"])
      }))

    it.effect("lists delegations planned at the same moment by task ID as a number (task 999 before task 1000)", () =>
      Effect.gen(function*() {
        const ledger = yield* DelegationLedger
        const moment = at("2026-04-02T00:00:00Z")
        yield* ledger.plan(planned("1000", { network: "nile", createdAt: moment }))
        yield* ledger.plan(planned("999", { network: "nile", createdAt: moment }))
        const mine = (rows: ReadonlyArray<EnergyDelegation>) => rows.filter((row) => ["999", "1000"].includes(row.taskId)).map((row) => row.taskId)
        expect(mine(yield* ledger.open("nile", 100))).toEqual(["999", "1000"])
      }))
  })
