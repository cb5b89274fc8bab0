import { Clock, Effect, Layer } from "effect"
import { BalanceLedger, type BalanceReading } from "./BalanceLedger.js"
import { newestReadings } from "./NewestReadings.js"
import { readingClearsMark, staleJumpsRotation, staleWaitsInRotation } from "./BalanceStaleness.js"
import * as RowRule from "../kernel/RowRule.js"
import { MemoryDatabase } from "../memory/MemoryDatabase.js"
import { type WalletRow, wallets } from "../memory/MemoryTables.js"
import { compare, compareDatesNullsFirst, compareIds } from "../memory/Ordering.js"

// numeric(78, 0): larger balances are refused by the column.
const numericLimit = 10n ** 78n

const synced = (wallet: WalletRow, reading: BalanceReading, at: Date): WalletRow => {
  // wallets_balances_follow_sync: a balance is known exactly when its block is above 0.
  if (reading.atBlock <= 0n) throw new Error(`wallets: wallet ${wallet.id} synced at block ${reading.atBlock}`)
  for (const amount of [reading.usdt, reading.trx]) {
    if (amount >= numericLimit || amount <= -numericLimit) throw new Error(`wallets: balance ${amount} overflows numeric(78, 0)`)
  }
  return {
    ...wallet,
    balanceUsdt: reading.usdt,
    balanceTrx: reading.trx,
    balanceBlock: reading.atBlock,
    balanceSyncedAt: at,
    // Only a reading at or above the mark's block can have seen what marked the wallet.
    balanceStaleFrom: RowRule.holds(readingClearsMark, wallet, { atBlock: reading.atBlock }) ? null : wallet.balanceStaleFrom
  }
}

export const make = Effect.gen(function*() {
  const db = yield* MemoryDatabase
  const rows = db.table(wallets)
  return BalanceLedger.of({
    due: (network, limit, solidified) =>
      db.atomically(() => {
        const inNetwork = rows.filter((w) => w.network === network)
        const stale = inNetwork.filter((w) => RowRule.holds(staleJumpsRotation, w, { solidified }))
          .sort((a, b) => compare(a.balanceStaleFrom!, b.balanceStaleFrom!) || compareIds(a.id, b.id))
        const rotation = inNetwork.filter((w) => RowRule.holds(staleWaitsInRotation, w, { solidified }))
          .sort((a, b) => compareDatesNullsFirst(a.balanceSyncedAt, b.balanceSyncedAt) || compareIds(a.id, b.id))
        return [...stale, ...rotation].slice(0, limit).map((w) => ({ id: w.id, address: w.address }))
      }),
    // A late reading from an older block (a slow node, a second worker) never moves a wallet back.
    record: (network, readings) =>
      Effect.flatMap(Clock.currentTimeMillis, (millis) =>
        db.atomically(() => {
          let written = 0
          for (const reading of newestReadings(readings)) {
            const wallet = rows.get(reading.walletId)
            if (wallet === undefined || wallet.network !== network || wallet.balanceBlock > reading.atBlock) continue
            rows.put(wallet.id, synced(wallet, reading, new Date(millis)))
            written += 1
          }
          return written
        })),
    backlog: (network) =>
      db.atomically(() => {
        const inNetwork = rows.filter((w) => w.network === network)
        return {
          unsynced: inNetwork.filter((w) => w.balanceSyncedAt === null).length,
          stale: inNetwork.filter((w) => w.balanceStaleFrom !== null).length
        }
      })
  })
})

export const layer = Layer.effect(BalanceLedger, make)
