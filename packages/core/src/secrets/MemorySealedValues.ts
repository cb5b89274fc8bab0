import { Effect, Layer, Option } from "effect"
import type { WalletId } from "../kernel/Ids.js"
import { localKey } from "../wallets/WalletKey.js"
import type { Sealed } from "./SecretBox.js"
import {
  type KeyIdCount,
  type SealedColumn,
  sealedColumns,
  type SealedEntry,
  type SealedPosition,
  SealedValues
} from "./SealedValues.js"
import { MemoryDatabase } from "../memory/MemoryDatabase.js"
import { apps, masterKeyCheck, resealProgress, resourceAccounts, walletKeys, wallets } from "../memory/MemoryTables.js"
import { compareIds } from "../memory/Ordering.js"

const sameSealed = (a: Sealed, b: Sealed) =>
  a.keyId === b.keyId && a.blob.length === b.blob.length && a.blob.every((byte, i) => byte === b.blob[i])

export const make = Effect.gen(function*() {
  const db = yield* MemoryDatabase
  const checks = db.table(masterKeyCheck)
  const appRows = db.table(apps)
  const keyRows = db.table(walletKeys)
  const walletRows = db.table(wallets)
  const progressRows = db.table(resealProgress)
  const accountRows = db.table(resourceAccounts)

  /** Every value of one column, by row id. */
  const columnEntries = (column: SealedColumn): Array<SealedEntry> => {
    const at = (rowId: string) => ({ column, rowId })
    switch (column) {
      case "master_key_check.sealed":
        return [...checks.entries()].map(([rowId, sealed]) => ({ position: at(rowId), owner: { _tag: "KeyCheck" as const }, sealed }))
      case "apps.secret_sealed":
        return [...appRows.values()].map((app) => ({
          position: at(app.appId),
          owner: { _tag: "AppSecret" as const, tenantId: app.tenantId, network: app.network },
          sealed: app.secret
        }))
      case "apps.webhook_key_sealed":
        return [...appRows.values()].map((app) => ({
          position: at(app.appId),
          owner: { _tag: "WebhookKey" as const, tenantId: app.tenantId, network: app.network },
          sealed: app.webhookKey
        }))
      case "wallet_keys.sealed_key":
        // A token's key is held in the token, not sealed here: nothing of it to re-seal.
        return [...keyRows.entries()].flatMap(([walletId, key]) =>
          key.store === "local"
            ? [{ position: at(walletId), owner: { _tag: "WalletKey" as const, address: walletRows.get(walletId)!.address }, sealed: key.sealed }]
            : [])
      case "resource_accounts.sealed_key":
        return [...accountRows.values()].flatMap(({ account, rowId }) =>
          account.key.store === "local"
            ? [{ position: at(rowId), owner: { _tag: "ResourceAccountKey" as const, address: account.address }, sealed: account.key.sealed }]
            : [])
    }
  }

  const page = (after: SealedPosition | null, limit: number) =>
    db.atomically(() => {
      const found: Array<SealedEntry> = []
      const from = after === null ? 0 : sealedColumns.indexOf(after.column)
      for (const column of sealedColumns.slice(from)) {
        const entries = columnEntries(column)
          .filter((entry) => after === null || column !== after.column || compareIds(entry.position.rowId, after.rowId) > 0)
          .sort((a, b) => compareIds(a.position.rowId, b.position.rowId))
        found.push(...entries.slice(0, limit - found.length))
        if (found.length >= limit) break
      }
      return found
    })

  const replace = (position: SealedPosition, expected: Sealed, next: Sealed) =>
    db.atomically(() => {
      const current = columnEntries(position.column).find((entry) => entry.position.rowId === position.rowId)
      if (current === undefined || !sameSealed(current.sealed, expected)) return false
      switch (position.column) {
        case "master_key_check.sealed":
          checks.put("1", next)
          break
        case "apps.secret_sealed":
          appRows.update(position.rowId, (app) => ({ ...app, secret: next }))
          break
        case "apps.webhook_key_sealed":
          appRows.update(position.rowId, (app) => ({ ...app, webhookKey: next }))
          break
        case "wallet_keys.sealed_key":
          keyRows.put(position.rowId as WalletId, localKey(next))
          break
        case "resource_accounts.sealed_key": {
          const [place] = [...accountRows.entries()].find(([, row]) => row.rowId === position.rowId)!
          accountRows.update(place, (row) => ({ ...row, account: { ...row.account, key: localKey(next) } }))
          break
        }
      }
      return true
    })

  const countByKeyId = db.atomically(() => {
    const counts = new Map<string, number>()
    for (const column of sealedColumns) {
      for (const { sealed } of columnEntries(column)) counts.set(sealed.keyId, (counts.get(sealed.keyId) ?? 0) + 1)
    }
    return [...counts].map(([keyId, count]): KeyIdCount => ({ keyId, count })).sort((a, b) => a.keyId < b.keyId ? -1 : a.keyId > b.keyId ? 1 : 0)
  })

  return SealedValues.of({
    page,
    replace,
    countByKeyId,
    keyCheck: db.atomically(() => Option.fromNullable(checks.get("1"))),
    createKeyCheck: (sealed) =>
      db.atomically(() => {
        const existing = checks.get("1")
        if (existing !== undefined) return existing
        checks.put("1", sealed)
        return sealed
      }),
    progress: db.atomically(() => Option.fromNullable(progressRows.get("1"))),
    saveProgress: (progress) => db.atomically(() => progressRows.put("1", progress)),
    clearProgress: db.atomically(() => void progressRows.delete("1"))
  })
})

export const layer = Layer.effect(SealedValues, make)
