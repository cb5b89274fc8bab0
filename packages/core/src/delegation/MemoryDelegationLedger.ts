import { Effect, Layer, Option } from "effect"
import { DelegationExists, DelegationLedger, DelegationMoved } from "./DelegationLedger.js"
import type { EnergyDelegation } from "./EnergyDelegation.js"
import { MemoryDatabase } from "../memory/MemoryDatabase.js"
import { energyDelegations } from "../memory/MemoryTables.js"

const sameStage = (a: EnergyDelegation, b: EnergyDelegation) =>
  a.state === b.state && a.delegateTxid === b.delegateTxid && a.reclaimTxid === b.reclaimTxid

const byAge = (a: EnergyDelegation, b: EnergyDelegation) =>
  a.createdAt.getTime() - b.createdAt.getTime() || (BigInt(a.taskId) < BigInt(b.taskId) ? -1 : BigInt(a.taskId) > BigInt(b.taskId) ? 1 : 0)

export const make = Effect.gen(function*() {
  const db = yield* MemoryDatabase
  const rows = db.table(energyDelegations)
  return DelegationLedger.of({
    plan: (delegation) =>
      Effect.flatten(db.atomically(() => {
        const existing = rows.get(delegation.taskId)
        if (existing !== undefined) return Effect.fail(new DelegationExists({ existing }))
        const planned = { ...delegation, state: "planned" as const }
        rows.put(delegation.taskId, planned)
        return Effect.succeed(planned)
      })),
    find: (taskId) => db.atomically(() => Option.fromNullable(rows.get(taskId))),
    update: (previous, next) =>
      Effect.flatten(db.atomically(() => {
        const stored = rows.get(previous.taskId)
        if (stored === undefined || !sameStage(stored, previous) || next.taskId !== previous.taskId) {
          return Effect.fail(new DelegationMoved({ current: Option.fromNullable(stored) }))
        }
        rows.put(previous.taskId, next)
        return Effect.succeed(next)
      })),
    open: (network, limit) =>
      db.atomically(() => rows.filter((row) => row.network === network && row.state !== "reclaimed").sort(byAge).slice(0, limit))
  })
})

export const layer = Layer.effect(DelegationLedger, make)
