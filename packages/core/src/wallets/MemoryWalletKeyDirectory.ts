import { Effect, Layer } from "effect"
import { compareIds } from "../kernel/Int64Id.js"
import { WalletKeyDirectory } from "./WalletKeyDirectory.js"
import { MemoryDatabase } from "../memory/MemoryDatabase.js"
import { walletKeys, wallets } from "../memory/MemoryTables.js"

export const make = Effect.map(MemoryDatabase, (db) =>
  WalletKeyDirectory.of({
    list: (scope, store) =>
      db.atomically(() => {
        const keys = db.table(walletKeys)
        return db.table(wallets)
          .filter((row) => row.tenantId === scope.tenantId && row.network === scope.network)
          .sort((a, b) => compareIds(a.id, b.id))
          .flatMap((row) => {
            const key = keys.get(row.id)
            if (key === undefined || (store !== undefined && key.store !== store)) return []
            return [{ walletId: row.id, address: row.address, customId: row.customId, store: key.store, label: key.store === "pkcs11" ? key.label : null }]
          })
      })
  }))

export const layer = Layer.effect(WalletKeyDirectory, make)
