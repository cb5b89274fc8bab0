import { Effect, Layer } from "effect"
import { compareIds } from "../kernel/Int64Id.js"
import { actionStarted, OperatorAuditLog } from "./OperatorAuditLog.js"
import { MemoryDatabase } from "../memory/MemoryDatabase.js"
import { operatorAudit, operatorCredentials } from "../memory/MemoryTables.js"

export const make = Effect.gen(function*() {
  const db = yield* MemoryDatabase
  const entries = db.table(operatorAudit)
  const credentials = db.table(operatorCredentials)
  return OperatorAuditLog.of({
    record: (action) =>
      db.atomically(() => {
        if (credentials.get(action.tokenId)?.kind !== "token") throw new Error(`operator_audit: no token ${action.tokenId}`)
        const entry = { ...action, id: db.nextId("operatorAudit") }
        entries.put(entry.id, entry)
        return entry
      }),
    settle: (id, outcome) =>
      db.atomically(() => {
        const entry = entries.get(id)
        if (entry === undefined || entry.outcome !== actionStarted) return false
        entries.put(id, { ...entry, outcome })
        return true
      }),
    recent: (limit) => db.atomically(() => [...entries.values()].sort((a, b) => compareIds(b.id, a.id)).slice(0, limit))
  })
})

export const layer = Layer.effect(OperatorAuditLog, make)
