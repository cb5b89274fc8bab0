import { Clock, Effect, Layer, Option } from "effect"
import type { WalletId } from "../kernel/Ids.js"
import { compareIds } from "../kernel/Int64Id.js"
import type { TenantScope } from "../tenants/Scope.js"
import { isTerminal } from "../sweeps/SweepTask.js"
import type { Wallet, WalletIdentity } from "./Wallet.js"
import { CustomIdTaken, WalletLimitReached } from "./WalletErrors.js"
import { WalletRepository } from "./WalletRepository.js"
import { MemoryDatabase } from "../memory/MemoryDatabase.js"
import { keyOf, sweepTasks, tenants, tenantSettings, walletKeys, type WalletRow, wallets } from "../memory/MemoryTables.js"
import { walletFilter, walletOrder } from "./MemoryWalletQuery.js"

const inScope = (scope: TenantScope) => (row: WalletRow) => row.tenantId === scope.tenantId && row.network === scope.network

const byId = (a: WalletRow, b: WalletRow) => compareIds(a.id, b.id)

export const make = Effect.gen(function*() {
  const db = yield* MemoryDatabase
  const rows = db.table(wallets)
  const keys = db.table(walletKeys)
  const settings = db.table(tenantSettings)
  const tasks = db.table(sweepTasks)
  const tenantRows = db.table(tenants)

  // A wallet is collecting while it has an unfinished sweep task.
  const collectingWallets = () => new Set<string>(tasks.filter((task) => !isTerminal(task.status)).map((task) => task.walletId))

  /** The wallets as read, each with its scope's settings (destination, collection wallet) and its sweep state. */
  const view = (scope: TenantScope, found: ReadonlyArray<WalletRow>): Array<Wallet> => {
    const collecting = collectingWallets()
    const scopeSettings = settings.get(keyOf(scope.tenantId, scope.network))
    return found.map((row) => ({
      id: row.id,
      network: row.network,
      address: row.address,
      customId: row.customId,
      collectionStatus: collecting.has(row.id) ? "collecting" : "idle",
      balanceUsdt: row.balanceUsdt,
      balanceTrx: row.balanceTrx,
      balanceBlock: row.balanceBlock,
      destination: scopeSettings?.collectionAddress ?? "",
      isCollectionAddress: scopeSettings?.collectionWalletId === row.id,
      collectedUsdt: row.collectedUsdt,
      lastCollectedAt: row.lastCollectedAt,
      createdAt: row.createdAt
    }))
  }

  /** The scope's wallets among `ids` (each once), ascending. */
  const named = (scope: TenantScope, ids: ReadonlyArray<WalletId>) =>
    [...new Set(ids)].flatMap((id) => rows.get(id) ?? []).filter(inScope(scope)).sort(byId)

  const one = (scope: TenantScope, row: WalletRow | undefined) =>
    Option.fromNullable(row !== undefined && inScope(scope)(row) ? view(scope, [row])[0] : undefined)

  return WalletRepository.of({
    drawId: Effect.sync(() => db.nextId("wallet") as WalletId),
    insert: (scope, wallet, maxWallets) =>
      Effect.flatMap(Clock.currentTimeMillis, (millis) =>
        db.atomically(() => {
          if (!tenantRows.has(scope.tenantId)) throw new Error(`wallets: no tenant ${scope.tenantId}`)
          // The limit first, as in PostgreSQL, where a refused insert never reaches the unique index.
          if (maxWallets !== undefined && rows.filter((row) => row.tenantId === scope.tenantId).length >= maxWallets) {
            return new WalletLimitReached({ limit: maxWallets })
          }
          // Checked in the order PostgreSQL checks the unique indexes: the custom ID's first.
          if (rows.find((row) => inScope(scope)(row) && row.customId === wallet.customId) !== undefined) return undefined
          if (rows.find((row) => row.network === scope.network && row.address === wallet.address) !== undefined) {
            throw new Error(`wallets: address ${wallet.address} is taken on ${scope.network}`)
          }
          const id = wallet.id ?? db.nextId("wallet") as WalletId
          if (rows.get(id) !== undefined) throw new Error(`wallets: ID ${id} is taken`)
          const createdAt = new Date(millis)
          rows.put(id, {
            id,
            tenantId: scope.tenantId,
            network: scope.network,
            address: wallet.address,
            customId: wallet.customId,
            balanceUsdt: null,
            balanceTrx: null,
            balanceBlock: 0n,
            collectedUsdt: 0n,
            lastCollectedAt: null,
            createdAt,
            balanceSyncedAt: null,
            balanceStaleFrom: null
          })
          keys.put(id, wallet.key)
          return { id, address: wallet.address, customId: wallet.customId, network: scope.network, createdAt }
        })).pipe(
          Effect.flatMap((identity): Effect.Effect<WalletIdentity, CustomIdTaken | WalletLimitReached> =>
            identity === undefined
              ? Effect.fail(new CustomIdTaken({ customId: wallet.customId }))
              : identity instanceof WalletLimitReached
              ? Effect.fail(identity)
              : Effect.succeed(identity)
          )
        ),

    find: (scope, id) => db.atomically(() => one(scope, rows.get(id))),

    findByAddress: (scope, address) => db.atomically(() => one(scope, rows.find((row) => row.network === scope.network && row.address === address))),

    list: (scope, query) =>
      db.atomically(() => {
        const matching = rows.filter(inScope(scope)).filter(walletFilter(query.filters))
        const offset = (query.page - 1) * query.pageSize
        const page = matching.sort(walletOrder(query)).slice(offset, offset + query.pageSize)
        return { items: view(scope, page), total: matching.length }
      }),

    selectIds: (scope, filters, limit) =>
      db.atomically(() => rows.filter(inScope(scope)).filter(walletFilter(filters)).sort(byId).slice(0, limit).map((row) => row.id)),

    findMany: (scope, ids) => db.atomically(() => view(scope, named(scope, ids))),

    unavailable: (scope, ids) =>
      db.atomically(() => {
        const collecting = collectingWallets()
        const collectionWallet = settings.get(keyOf(scope.tenantId, scope.network))?.collectionWalletId
        return named(scope, ids).filter((row) => row.id === collectionWallet || collecting.has(row.id)).map((row) => row.id)
      }),

    summary: (scope) =>
      db.atomically(() => {
        const mine = rows.filter(inScope(scope))
        const sum = (amount: (row: WalletRow) => bigint | null) => mine.reduce((total, row) => total + (amount(row) ?? 0n), 0n)
        return {
          walletCount: mine.length,
          unsyncedWalletCount: mine.filter((row) => row.balanceBlock === 0n).length,
          balanceUsdt: sum((row) => row.balanceUsdt),
          balanceTrx: sum((row) => row.balanceTrx),
          collectedUsdt: sum((row) => row.collectedUsdt)
        }
      })
  })
})

export const layer = Layer.effect(WalletRepository, make)
