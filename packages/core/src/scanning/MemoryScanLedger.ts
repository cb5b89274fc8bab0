import { Clock, Effect, Layer, Option } from "effect"
import type { BlockRef } from "../chain/ChainModel.js"
import type { WalletId } from "../kernel/Ids.js"
import type { Network } from "../kernel/Network.js"
import { CursorMoved, type ObservedTransfer, ScanLedger, type ScanPosition, type StoredOutflow } from "./ScanLedger.js"
import { MemoryDatabase } from "../memory/MemoryDatabase.js"
import * as RowRule from "../kernel/RowRule.js"
import { scanLeaseTakable } from "./ScanLease.js"
import {
  apps,
  deposits,
  keyOf,
  type ObservedLogRow,
  observedLogs,
  type OutflowRow,
  scanCursors,
  scannedBlocks,
  sweepTasks,
  tenants,
  unaccountedOutflows,
  wallets
} from "../memory/MemoryTables.js"
import { compareIds } from "../memory/Ordering.js"

const logKey = (network: Network, txid: string, logIndex: number) => keyOf(network, txid, logIndex)

const logRow = (network: Network, observed: ObservedTransfer): ObservedLogRow => ({
  network,
  txid: observed.transfer.txid,
  logIndex: observed.transfer.logIndex,
  blockNumber: observed.block.number,
  blockHash: observed.block.hash,
  blockTime: observed.block.timestamp,
  tenantId: observed.wallet.tenantId,
  walletId: observed.wallet.walletId,
  customId: observed.wallet.customId,
  address: observed.wallet.address,
  source: observed.transfer.from,
  contract: observed.transfer.contract,
  amount: observed.transfer.amount,
  booked: false
})

const outflowRow = (network: Network, observed: ObservedTransfer): OutflowRow => ({
  network,
  txid: observed.transfer.txid,
  logIndex: observed.transfer.logIndex,
  blockNumber: observed.block.number,
  blockHash: observed.block.hash,
  blockTime: observed.block.timestamp,
  tenantId: observed.wallet.tenantId,
  walletId: observed.wallet.walletId,
  customId: observed.wallet.customId,
  address: observed.wallet.address,
  destination: observed.transfer.to,
  contract: observed.transfer.contract,
  amount: observed.transfer.amount,
  state: "open",
  taskId: null
})

const storedOutflow = (row: OutflowRow): StoredOutflow => ({
  network: row.network,
  // The parent hash is not kept with the outflow: no reader of it needs it.
  block: { number: row.blockNumber, hash: row.blockHash, parentHash: "", timestamp: row.blockTime },
  transfer: { txid: row.txid, logIndex: row.logIndex, from: row.address, to: row.destination, amount: row.amount, contract: row.contract },
  wallet: { walletId: row.walletId, tenantId: row.tenantId, address: row.address, customId: row.customId, depositMinimum: null },
  state: row.state,
  taskId: row.taskId
})

const minOf = (values: ReadonlyArray<bigint>): Option.Option<bigint> =>
  values.length === 0 ? Option.none() : Option.some(values.reduce((a, b) => (b < a ? b : a)))

export const make = Effect.gen(function*() {
  const db = yield* MemoryDatabase
  const cursors = db.table(scanCursors)
  const blocks = db.table(scannedBlocks)
  const logs = db.table(observedLogs)
  const walletRows = db.table(wallets)
  const outflows = db.table(unaccountedOutflows)
  const now = Effect.map(Clock.currentTimeMillis, (millis) => new Date(millis))

  const blocksOf = (network: Network) => blocks.filter((b) => b.network === network)

  // What the table's constraints refuse: a storage failure, so a defect that undoes the operation.
  const putLog = (key: string, row: ObservedLogRow) => {
    if (row.amount < 0n) throw new Error(`observed_logs: negative amount in ${row.txid}`)
    if (!walletRows.has(row.walletId) || !db.table(tenants).has(row.tenantId)) {
      throw new Error(`observed_logs: wallet ${row.walletId} of tenant ${row.tenantId} does not exist`)
    }
    logs.put(key, row)
  }

  // An outflow stored before (a re-scan after a lost cursor) stays as it was: open, restored or reported.
  const insertOutflow = (network: Network, observed: ObservedTransfer) => {
    const row = outflowRow(network, observed)
    if (row.amount < 0n) throw new Error(`unaccounted_outflows: negative amount in ${row.txid}`)
    if (!walletRows.has(row.walletId) || !db.table(tenants).has(row.tenantId)) {
      throw new Error(`unaccounted_outflows: wallet ${row.walletId} of tenant ${row.tenantId} does not exist`)
    }
    const key = keyOf(network, row.txid, row.logIndex)
    if (!outflows.has(key)) outflows.put(key, row)
  }

  /** The cursor moves only from where the caller read it; false (nothing written) when it moved meanwhile. */
  const moveCursor = (network: Network, from: ScanPosition, to: ScanPosition, at: Date, tip?: { head: bigint; solidified: bigint }) => {
    const cursor = cursors.get(network)
    if (cursor === undefined || cursor.blockNumber !== from.number || cursor.blockHash !== from.hash) return false
    cursors.put(network, {
      ...cursor,
      blockNumber: to.number,
      blockHash: to.hash,
      headNumber: tip?.head ?? cursor.headNumber,
      solidifiedNumber: tip?.solidified ?? cursor.solidifiedNumber,
      updatedAt: at
    })
    return true
  }

  const storeBlock = (network: Network, block: BlockRef) => {
    const key = keyOf(network, block.number)
    if (blocks.has(key)) throw new Error(`scanned_blocks: block ${block.number} of ${network} is already stored`)
    blocks.put(key, { network, number: block.number, hash: block.hash, parentHash: block.parentHash, blockTime: block.timestamp })
  }

  // A row for the same log can only be left from a block this chain no longer has: it moves,
  // keeping what it was first stored with, and stays booked only if the block is the same.
  const upsertLog = (network: Network, observed: ObservedTransfer, written: Set<string>) => {
    const row = logRow(network, observed)
    const key = logKey(network, row.txid, row.logIndex)
    if (written.has(key)) throw new Error(`observed_logs: log ${row.txid}/${row.logIndex} twice in one append`)
    written.add(key)
    const existing = logs.get(key)
    putLog(
      key,
      existing === undefined ? row : {
        ...existing,
        blockNumber: row.blockNumber,
        blockHash: row.blockHash,
        blockTime: row.blockTime,
        booked: existing.booked && existing.blockHash === row.blockHash
      }
    )
  }

  const markStale = (touchedBy: ReadonlyArray<ObservedTransfer>) => {
    const touched = new Map<WalletId, bigint>()
    for (const t of touchedBy) {
      const seen = touched.get(t.wallet.walletId)
      if (seen === undefined || seen < t.block.number) touched.set(t.wallet.walletId, t.block.number)
    }
    for (const [id, block] of touched) {
      const wallet = walletRows.get(id)
      if (wallet === undefined) continue
      const from = wallet.balanceStaleFrom ?? 0n
      walletRows.put(wallet.id, { ...wallet, balanceStaleFrom: from > block ? from : block })
    }
  }

  const confirmedInBlock = (network: Network, row: ObservedLogRow) =>
    db.table(deposits).find((d) =>
      d.network === network && d.txid === row.txid && d.logIndex === row.logIndex && d.status === "confirmed" && d.blockHash === row.blockHash
    ) !== undefined

  return ScanLedger.of({
    cursor: (network) =>
      db.atomically(() =>
        Option.map(Option.fromNullable(cursors.get(network)), (c): ScanPosition => ({ number: c.blockNumber, hash: c.blockHash }))
      ),
    storedBlock: (network, number) =>
      db.atomically(() =>
        Option.map(Option.fromNullable(blocks.get(keyOf(network, number))), (b): BlockRef => ({
          number: b.number,
          hash: b.hash,
          parentHash: b.parentHash,
          timestamp: b.blockTime
        }))
      ),
    oldestStored: (network) => db.atomically(() => minOf(blocksOf(network).map((b) => b.number))),
    walletsAt: (network, addresses) =>
      db.atomically(() => {
        const wanted = new Set(addresses)
        const appRows = db.table(apps)
        return walletRows
          .filter((w) => w.network === network && wanted.has(w.address))
          .map((w) => ({
            walletId: w.id,
            tenantId: w.tenantId,
            address: w.address,
            customId: w.customId,
            depositMinimum: appRows.find((a) => a.tenantId === w.tenantId && a.network === network)?.depositMinimum ?? null
          }))
      }),
    sweepsAmong: (network, txids) =>
      db.atomically(() => {
        const wanted = new Set(txids)
        return db.table(sweepTasks)
          .filter((t) => t.network === network && t.transaction !== null && wanted.has(t.transaction.txid))
          .map((t) => ({ txid: t.transaction!.txid, tenantId: t.tenantId, from: t.address, to: t.destination }))
      }),
    append: (network, from, scanned, tip) =>
      Effect.flatMap(now, (at) =>
        db.atomically(() => {
          const last = scanned[scanned.length - 1]!.block
          if (Option.isNone(from)) {
            if (cursors.has(network)) return false
            cursors.put(network, {
              network,
              blockNumber: last.number,
              blockHash: last.hash,
              headNumber: tip.head,
              solidifiedNumber: tip.solidified,
              leaseHolder: "",
              leaseExpiresAt: null,
              updatedAt: at
            })
          } else if (!moveCursor(network, from.value, last, at, tip)) {
            return false
          }
          for (const { block } of scanned) storeBlock(network, block)
          const written = new Set<string>()
          for (const observed of scanned.flatMap((b) => b.transfers)) upsertLog(network, observed, written)
          for (const observed of scanned.flatMap((b) => b.outflows)) insertOutflow(network, observed)
          markStale(scanned.flatMap((b) => [...b.transfers, ...b.ownSweeps]))
          return true
        })).pipe(Effect.flatMap((moved) => moved ? Effect.void : Effect.fail(new CursorMoved({ network })))),
    rewind: (network, from, to) =>
      Effect.flatMap(now, (at) =>
        db.atomically(() => {
          if (!moveCursor(network, from, to, at)) return false
          for (const log of logs.filter((l) => l.network === network && l.blockNumber > to.number)) {
            logs.delete(logKey(network, log.txid, log.logIndex))
          }
          // An outflow not acted on yet goes with its block; the chain that replaces it is scanned again.
          for (const o of outflows.filter((o) => o.network === network && o.state === "open" && o.blockNumber > to.number)) {
            outflows.delete(keyOf(network, o.txid, o.logIndex))
          }
          for (const block of blocksOf(network).filter((b) => b.number > to.number)) blocks.delete(keyOf(network, block.number))
          return true
        })).pipe(Effect.flatMap((moved) => moved ? Effect.void : Effect.fail(new CursorMoved({ network })))),
    // Only into a block still stored with the same hash, and never for a transfer already
    // confirmed in that block: a restore adds what is missing but never books anything twice.
    restore: (network, transfers) =>
      db.atomically(() => {
        let inserted = 0
        for (const observed of transfers) {
          const row = logRow(network, observed)
          const key = logKey(network, row.txid, row.logIndex)
          if (logs.has(key)) continue
          if (blocks.get(keyOf(network, row.blockNumber))?.hash !== row.blockHash) continue
          if (confirmedInBlock(network, row)) continue
          putLog(key, row)
          inserted += 1
        }
        return inserted
      }),
    prune: (network, below) =>
      db.atomically(() => {
        for (const log of logs.filter((l) => l.network === network && l.blockNumber < below && l.booked)) {
          logs.delete(logKey(network, log.txid, log.logIndex))
        }
        for (const block of blocksOf(network).filter((b) => b.number < below)) blocks.delete(keyOf(network, block.number))
      }),
    forget: (network) =>
      db.atomically(() => {
        for (const log of logs.filter((l) => l.network === network)) logs.delete(logKey(network, log.txid, log.logIndex))
        for (const block of blocksOf(network)) blocks.delete(keyOf(network, block.number))
        for (const o of outflows.filter((o) => o.network === network)) outflows.delete(keyOf(network, o.txid, o.logIndex))
        cursors.delete(network)
      }),
    openOutflows: (network, limit) =>
      db.atomically(() =>
        outflows
          .filter((o) => o.network === network && o.state === "open")
          .sort((a, b) => (a.blockNumber < b.blockNumber ? -1 : a.blockNumber > b.blockNumber ? 1 : a.txid < b.txid ? -1 : a.txid > b.txid ? 1 : a.logIndex - b.logIndex))
          .slice(0, limit)
          .map(storedOutflow)
      ),
    closeOutflow: (network, transfer, resolution) =>
      db.atomically(() => {
        const key = keyOf(network, transfer.txid, transfer.logIndex)
        const row = outflows.get(key)
        if (row === undefined || row.state !== "open") return false
        outflows.put(key, { ...row, state: resolution.state, taskId: resolution.state === "restored" ? resolution.taskId : null })
        return true
      }),
    // Before the first block is stored there is no cursor to lease: every claimer may start, and
    // the cursor's creation lets exactly one of them win.
    claimLease: (network, holder, ttlMillis) =>
      Effect.flatMap(now, (at) =>
        db.atomically(() => {
          const cursor = cursors.get(network)
          if (cursor === undefined) return true
          if (!RowRule.holds(scanLeaseTakable, cursor, { holder, now: at })) return false
          cursors.put(network, { ...cursor, leaseHolder: holder, leaseExpiresAt: new Date(at.getTime() + ttlMillis) })
          return true
        })),
    releaseLease: (network, holder) =>
      db.atomically(() => {
        const cursor = cursors.get(network)
        if (cursor !== undefined && cursor.leaseHolder === holder) cursors.put(network, { ...cursor, leaseHolder: "", leaseExpiresAt: null })
      }),
    firstBlockSince: (network, time) =>
      db.atomically(() => minOf(blocksOf(network).filter((b) => b.blockTime.getTime() >= time.getTime()).map((b) => b.number))),
    newWallets: (network, afterId) =>
      db.atomically(() => {
        const newer = walletRows.filter((w) => w.network === network && compareIds(w.id, afterId) > 0)
        if (newer.length === 0) return Option.none()
        const lastId = newer.map((w) => w.id).reduce((a, b) => (compareIds(b, a) > 0 ? b : a))
        const firstCreatedAt = newer.map((w) => w.createdAt).reduce((a, b) => (b.getTime() < a.getTime() ? b : a))
        return Option.some({ lastId: lastId as string, firstCreatedAt })
      }),
    lastWalletId: db.atomically(() =>
      [...walletRows.keys()].reduce<string>((a, b) => (compareIds(b, a) > 0 ? b : a), "0")
    )
  })
})

export const layer = Layer.effect(ScanLedger, make)
