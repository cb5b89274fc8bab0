import { localKey } from "./WalletKey.js"
import { expect, layer } from "@effect/vitest"
import { Effect, Either, type Layer, Option } from "effect"
import type { WalletId } from "../kernel/Ids.js"
import { compareIds, isCanonicalPositiveInt64 } from "../kernel/Int64Id.js"
import type { TenantScope } from "../tenants/Scope.js"
import { SettingsRepository } from "../settings/SettingsRepository.js"
import type { Wallet } from "./Wallet.js"
import { CustomIdTaken, WalletLimitReached } from "./WalletErrors.js"
import type { WalletFilters, WalletQuery, WalletSort } from "./WalletQuery.js"
import { type NewWallet, WalletRepository } from "./WalletRepository.js"
import { dies } from "../testing/Defects.js"
import { type FixtureWallet, StorageFixtures } from "../testing/StorageFixtures.js"

const maxAmount = 2n ** 256n - 1n
const unknownId = "9223372036854775807" as WalletId

const newWallet = (customId: string, address: string): NewWallet => ({ customId, address, key: localKey({ keyId: "k", blob: new Uint8Array([7]) }) })

const query = (filters: WalletFilters = {}, sort: WalletSort = "created_at", order: "asc" | "desc" = "desc", page = 1, pageSize = 20): WalletQuery => ({
  filters,
  sort,
  order,
  page,
  pageSize
})

const idsOf = (page: { readonly items: ReadonlyArray<Wallet> }) => page.items.map((w) => w.id)

/** The same tenant on the other network: a stranger to the scope. */
const otherNetworkOf = (scope: TenantScope): TenantScope => ({ tenantId: scope.tenantId, network: scope.network === "nile" ? "main" : "nile" })

/** A new scope and its two kinds of strangers: its tenant on the other network, and another tenant on its network. */
const scopeAndStrangers = Effect.gen(function*() {
  const fixtures = yield* StorageFixtures
  const scope = yield* fixtures.scope("nile")
  return { fixtures, scope, otherNetwork: otherNetworkOf(scope), otherTenant: yield* fixtures.scope("nile") }
})

/**
 * Six wallets of one scope, created a second apart (w1 first):
 * w1 500 USDT / 0 TRX; w2 500 / 30, collected 700 on 2 January; w3 unsynced, collected 300 at
 * 00:00:00.123 on 1 January; w4 0 / 20, collected 700 on 2 January; w5 1000 / 30; w6 unsynced.
 */
const sixWallets = (scope: TenantScope) =>
  Effect.gen(function*() {
    const fixtures = yield* StorageFixtures
    const at = (second: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, second))
    const synced = (usdt: bigint, trx: bigint) => ({ balanceUsdt: usdt, balanceTrx: trx, balanceBlock: 100n })
    const w1 = yield* fixtures.wallet(scope, { ...synced(500n, 0n), createdAt: at(1) })
    const w2 = yield* fixtures.wallet(scope, { ...synced(500n, 30n), createdAt: at(2) })
    const w3 = yield* fixtures.wallet(scope, { createdAt: at(3) })
    const w4 = yield* fixtures.wallet(scope, { ...synced(0n, 20n), createdAt: at(4) })
    const w5 = yield* fixtures.wallet(scope, { ...synced(1000n, 30n), createdAt: at(5) })
    const w6 = yield* fixtures.wallet(scope, { createdAt: at(6) })
    yield* fixtures.walletCollected(w2.id, 700n, new Date("2026-01-02T00:00:00Z"))
    yield* fixtures.walletCollected(w3.id, 300n, new Date("2026-01-01T00:00:00.123Z"))
    yield* fixtures.walletCollected(w4.id, 700n, new Date("2026-01-02T00:00:00Z"))
    const byName: Record<string, FixtureWallet> = { w1, w2, w3, w4, w5, w6 }
    return (names: string) => (names === "" ? [] : names.split(",").map((n) => byName[n]!.id))
  })

/** Lists with each filter set and expects the named wallets (newest first) and their count. */
const expectFiltered = (scope: TenantScope, order: (names: string) => ReadonlyArray<WalletId>, cases: ReadonlyArray<[WalletFilters, string]>) =>
  Effect.gen(function*() {
    const repo = yield* WalletRepository
    for (const [filters, names] of cases) {
      const page = yield* repo.list(scope, query(filters))
      const label = JSON.stringify(filters, (_, v) => (typeof v === "bigint" ? `${v}n` : v))
      expect([idsOf(page), page.total], label).toEqual([order(names), order(names).length])
      expect(yield* repo.selectIds(scope, filters), label).toEqual([...order(names)].sort(compareIds))
    }
  })

/**
 * What every WalletRepository must do: the port's reads, filters, sorts and paging exactly as the
 * API serves them. Each test makes its own scopes; wallets of other tests are other scopes'.
 */
export const walletRepositoryContract = <E>(name: string, storage: Layer.Layer<WalletRepository | SettingsRepository | StorageFixtures, E>) =>
  layer(storage)(`WalletRepository contract (${name})`, (it) => {
    it.effect("insert answers the identity; find and findByAddress read the new wallet in its scope only", () =>
      Effect.gen(function*() {
        const repo = yield* WalletRepository
        const { otherNetwork, otherTenant, scope } = yield* scopeAndStrangers
        const address = `TContractRead${scope.tenantId}`
        const identity = yield* repo.insert(scope, newWallet("c-1", address))
        expect({ ...identity, id: undefined, createdAt: undefined }).toEqual({ id: undefined, address, customId: "c-1", network: "nile", createdAt: undefined })
        expect([isCanonicalPositiveInt64(identity.id), identity.createdAt instanceof Date]).toEqual([true, true])
        const wallet: Wallet = {
          id: identity.id,
          network: "nile",
          address,
          customId: "c-1",
          collectionStatus: "idle",
          balanceUsdt: null,
          balanceTrx: null,
          balanceBlock: 0n,
          destination: "",
          isCollectionAddress: false,
          collectedUsdt: 0n,
          lastCollectedAt: null,
          createdAt: identity.createdAt
        }
        expect(yield* repo.find(scope, identity.id)).toEqual(Option.some(wallet))
        expect(yield* repo.findByAddress(scope, address)).toEqual(Option.some(wallet))
        expect(yield* repo.findMany(scope, [identity.id])).toEqual([wallet])
        for (const stranger of [otherTenant, otherNetwork]) {
          expect([yield* repo.find(stranger, identity.id), yield* repo.findByAddress(stranger, address)]).toEqual([Option.none(), Option.none()])
          expect(yield* repo.findMany(stranger, [identity.id])).toEqual([])
        }
        expect(yield* repo.find(scope, unknownId)).toEqual(Option.none())
        expect(yield* repo.findByAddress(scope, address.toLowerCase())).toEqual(Option.none())
      }))

    it.effect("a drawn ID is fresh, is the one insert stores, and is never handed out again, refused or not", () =>
      Effect.gen(function*() {
        const repo = yield* WalletRepository
        const { scope } = yield* scopeAndStrangers
        const drawn = yield* repo.drawId
        expect(isCanonicalPositiveInt64(drawn)).toBe(true)
        const identity = yield* repo.insert(scope, { ...newWallet("drawn", `TContractDrawn${scope.tenantId}`), id: drawn })
        expect(identity.id).toBe(drawn)
        expect(Option.map(yield* repo.find(scope, drawn), (w) => w.customId)).toEqual(Option.some("drawn"))
        // An ID drawn for a creation that is then refused stays spent: the next ones are all new.
        const spent = yield* repo.drawId
        expect(yield* Effect.either(repo.insert(scope, { ...newWallet("drawn", `TContractSpent${scope.tenantId}`), id: spent }))).toEqual(Either.left(new CustomIdTaken({ customId: "drawn" })))
        const later = [yield* repo.drawId, (yield* repo.insert(scope, newWallet("assigned", `TContractAssigned${scope.tenantId}`))).id]
        expect(new Set([drawn, spent, ...later]).size).toBe(4)
        for (const id of later) expect(BigInt(id) > BigInt(spent)).toBe(true)
        expect(yield* repo.find(scope, spent)).toEqual(Option.none())
      }))

    it.effect("a custom ID is unique in its scope, an address in its network; a refused insert stores nothing", () =>
      Effect.gen(function*() {
        const repo = yield* WalletRepository
        const { otherNetwork, otherTenant, scope } = yield* scopeAndStrangers
        const address = (label: string) => `TContractUnique${scope.tenantId}${label}`
        const taken = Either.left(new CustomIdTaken({ customId: "dup" }))
        yield* repo.insert(scope, newWallet("dup", address("a")))
        expect(yield* Effect.either(repo.insert(scope, newWallet("dup", address("b"))))).toEqual(taken)
        expect(yield* repo.findByAddress(scope, address("b"))).toEqual(Option.none())
        // The same custom ID in another scope is another wallet.
        yield* repo.insert(otherTenant, newWallet("dup", address("c")))
        yield* repo.insert(otherNetwork, newWallet("dup", address("d")))
        // An address taken on the network is a defect (keys are generated, a clash is a bug), even for another tenant.
        expect(yield* dies(repo.insert(otherTenant, newWallet("other", address("a"))))).toBe(true)
        expect(yield* repo.selectIds(otherTenant, {})).toHaveLength(1)
        // The same address on the other network is another wallet.
        yield* repo.insert(otherNetwork, newWallet("other", address("a")))
        // Both taken: the custom ID is reported, as PostgreSQL checks its index first.
        expect(yield* Effect.either(repo.insert(scope, newWallet("dup", address("a"))))).toEqual(taken)
        expect((yield* repo.list(scope, query())).total).toBe(1)
        expect((yield* repo.list(otherNetwork, query())).total).toBe(2)
      }))

    it.effect("sorts by each field both ways: nulls last in both orders, ties by ID descending, across pages", () =>
      Effect.gen(function*() {
        const repo = yield* WalletRepository
        const scope = yield* Effect.flatMap(StorageFixtures, (f) => f.scope("nile"))
        const order = yield* sixWallets(scope)
        const expected: Record<WalletSort, [string, string]> = {
          created_at: ["w1,w2,w3,w4,w5,w6", "w6,w5,w4,w3,w2,w1"],
          balance_usdt: ["w4,w2,w1,w5,w6,w3", "w5,w2,w1,w4,w6,w3"],
          balance_trx: ["w1,w4,w5,w2,w6,w3", "w5,w2,w4,w1,w6,w3"],
          collected_usdt: ["w6,w5,w1,w3,w4,w2", "w4,w2,w3,w6,w5,w1"],
          last_collected_at: ["w3,w4,w2,w6,w5,w1", "w4,w2,w3,w6,w5,w1"]
        }
        for (const [sort, [asc, desc]] of Object.entries(expected) as Array<[WalletSort, [string, string]]>) {
          expect(idsOf(yield* repo.list(scope, query({}, sort, "asc"))), `${sort} asc`).toEqual(order(asc))
          expect(idsOf(yield* repo.list(scope, query({}, sort, "desc"))), `${sort} desc`).toEqual(order(desc))
        }
        const paged = [
          ...idsOf(yield* repo.list(scope, query({}, "balance_usdt", "asc", 1, 4))),
          ...idsOf(yield* repo.list(scope, query({}, "balance_usdt", "asc", 2, 4)))
        ]
        expect(paged).toEqual(order("w4,w2,w1,w5,w6,w3"))
        const middle = yield* repo.list(scope, query({}, "created_at", "asc", 2, 2))
        expect([idsOf(middle), middle.total]).toEqual([order("w3,w4"), 6])
      }))

    it.effect("wallets created at the same instant go by ID descending in both orders", () =>
      Effect.gen(function*() {
        const repo = yield* WalletRepository
        const fixtures = yield* StorageFixtures
        const scope = yield* fixtures.scope("main")
        const instant = new Date("2026-03-01T00:00:00.500Z")
        const early = yield* fixtures.wallet(scope, { createdAt: new Date("2026-02-01T00:00:00Z") })
        const same = yield* Effect.forEach([1, 2, 3], () => fixtures.wallet(scope, { createdAt: instant }))
        const tied = same.map((w) => w.id).sort(compareIds).reverse()
        expect(idsOf(yield* repo.list(scope, query({}, "created_at", "asc")))).toEqual([early.id, ...tied])
        expect(idsOf(yield* repo.list(scope, query({}, "created_at", "desc")))).toEqual([...tied, early.id])
      }))

    it.effect("amount bounds are inclusive and never match unsynced wallets; hide-zero keeps positive balances; totals count the matches", () =>
      Effect.gen(function*() {
        const scope = yield* Effect.flatMap(StorageFixtures, (f) => f.scope("nile"))
        const order = yield* sixWallets(scope)
        yield* expectFiltered(scope, order, [
          [{}, "w6,w5,w4,w3,w2,w1"],
          [{ usdtMin: 500n, usdtMax: 500n }, "w2,w1"],
          [{ usdtMin: 500n }, "w5,w2,w1"],
          [{ usdtMin: 501n }, "w5"],
          [{ usdtMax: 499n }, "w4"],
          [{ usdtMin: 0n }, "w5,w4,w2,w1"],
          [{ usdtMax: 0n }, "w4"],
          [{ usdtMax: maxAmount }, "w5,w4,w2,w1"],
          [{ usdtMin: maxAmount }, ""],
          [{ trxMin: 20n, trxMax: 30n }, "w5,w4,w2"],
          [{ trxMax: 0n }, "w1"],
          [{ trxMin: 31n }, ""],
          [{ usdtMin: 500n, trxMin: 1n }, "w5,w2"],
          [{ usdtMin: 501n, usdtMax: 500n }, ""],
          [{ hideZero: true }, "w5,w2,w1"],
          [{ hideZeroTrx: true }, "w5,w4,w2"],
          [{ hideZero: true, hideZeroTrx: true }, "w5,w2"],
          [{ hideZero: false, hideZeroTrx: false }, "w6,w5,w4,w3,w2,w1"],
          [{ hideZero: true, usdtMax: 999n }, "w2,w1"]
        ])
      }))

    it.effect("last-collected bounds are inclusive at microsecond precision and never match wallets never collected", () =>
      Effect.gen(function*() {
        const repo = yield* WalletRepository
        const scope = yield* Effect.flatMap(StorageFixtures, (f) => f.scope("nile"))
        const order = yield* sixWallets(scope)
        yield* expectFiltered(scope, order, [
          [{ lastCollectedFrom: "1970-01-01T00:00:00.000000Z" }, "w4,w3,w2"],
          [{ lastCollectedTo: "2999-12-31T23:59:59.999999Z" }, "w4,w3,w2"],
          [{ lastCollectedFrom: "2026-01-01T00:00:00.123000Z" }, "w4,w3,w2"],
          [{ lastCollectedFrom: "2026-01-01T00:00:00.123001Z" }, "w4,w2"],
          [{ lastCollectedTo: "2026-01-01T00:00:00.123000Z" }, "w3"],
          [{ lastCollectedTo: "2026-01-01T00:00:00.122999Z" }, ""],
          [{ lastCollectedFrom: "2026-01-01T00:00:00.123000Z", lastCollectedTo: "2026-01-01T00:00:00.123000Z" }, "w3"],
          [{ lastCollectedFrom: "2026-01-02T00:00:00.000000Z", lastCollectedTo: "2026-01-02T00:00:00.000000Z" }, "w4,w2"],
          [{ lastCollectedFrom: "2026-01-03T00:00:00.000000Z" }, ""],
          // The widest times the API passes on: before year 1 and after year 9999.
          [{ lastCollectedFrom: "0002-12-31T00:01:00.000000Z BC" }, "w4,w3,w2"],
          [{ lastCollectedTo: "0002-12-31T00:01:00.000000Z BC" }, ""],
          [{ lastCollectedFrom: "2026-01-03T00:00:00.000000Z BC" }, "w4,w3,w2"],
          [{ lastCollectedTo: "2026-01-03T00:00:00.000000Z BC" }, ""],
          [{ lastCollectedTo: "10000-01-01T23:58:59.000000Z" }, "w4,w3,w2"]
        ])
        const sorted = yield* repo.list(scope, query({ lastCollectedFrom: "2000-01-01T00:00:00.000000Z" }, "last_collected_at", "asc"))
        expect(idsOf(sorted)).toEqual(order("w3,w4,w2"))
      }))

    it.effect("address: case-insensitive contains, % and _ as wildcards, every other character literal", () =>
      Effect.gen(function*() {
        const fixtures = yield* StorageFixtures
        const scope = yield* fixtures.scope("nile")
        const stranger = yield* fixtures.scope("nile")
        const tag = scope.tenantId
        const a = yield* fixtures.wallet(scope, { address: `TAddr${tag}AbCdEf` })
        const b = yield* fixtures.wallet(scope, { address: `TAddr${tag}AbXdEf` })
        const c = yield* fixtures.wallet(scope, { address: `TAddr${tag}Back\\slash` })
        yield* fixtures.wallet(stranger, { address: `TAddr${stranger.tenantId}AbCdEf` })
        const named: Record<string, FixtureWallet> = { a, b, c }
        const order = (names: string) => (names === "" ? [] : names.split(",").map((n) => named[n]!.id))
        const cases: ReadonlyArray<[string, string]> = [
          ["AbCdEf", "a"],
          ["abcdef", "a"],
          ["ABCDEF", "a"],
          ["Ab_dEf", "b,a"],
          ["Ab%Ef", "b,a"],
          ["Ab__dEf", ""],
          ["Ab.dEf", ""],
          ["%", "c,b,a"],
          ["_", "c,b,a"],
          ["taddr", "c,b,a"],
          ["", "c,b,a"],
          ["k\\s", "c"],
          ["K\\S", "c"],
          ["\\%", "c"],
          ["\\_", "c"],
          ["\\T", ""],
          ["(", ""],
          [`TAddr${tag}AbCdEfX`, ""]
        ]
        yield* expectFiltered(scope, order, cases.map(([address, names]) => [{ address }, names]))
      }))

    it.effect("totals stay exact under concurrent inserts and refused duplicates; a page past the end has the true total", () =>
      Effect.gen(function*() {
        const repo = yield* WalletRepository
        const fixtures = yield* StorageFixtures
        const scope = yield* fixtures.scope("nile")
        const other = yield* fixtures.scope("nile")
        const insert = (into: TenantScope, i: number) => repo.insert(into, newWallet(`w-${i}`, `TConcurrent${into.tenantId}x${i}`))
        const ids = (yield* Effect.all(Array.from({ length: 40 }, (_, i) => insert(scope, i)), { concurrency: 16 })).map((w) => w.id)
        yield* Effect.all(Array.from({ length: 3 }, (_, i) => insert(other, i)), { concurrency: 3 })
        expect(yield* Effect.either(insert(scope, 7))).toEqual(Either.left(new CustomIdTaken({ customId: "w-7" })))
        const totals = (into: TenantScope, filters: WalletFilters, page = 1) =>
          Effect.map(repo.list(into, query(filters, "created_at", "desc", page)), (p) => [p.items.length, p.total])
        expect(yield* totals(scope, {})).toEqual([20, 40])
        expect(yield* totals(other, {})).toEqual([3, 3])
        expect(yield* totals(scope, { address: "tconcurrent" })).toEqual([20, 40])
        expect(yield* totals(scope, {}, 2)).toEqual([20, 40])
        expect(yield* totals(scope, {}, 3)).toEqual([0, 40])
        expect(yield* totals(scope, { address: "tconcurrent" }, 5)).toEqual([0, 40])
        expect(yield* totals(scope, { usdtMin: 0n })).toEqual([0, 0])
        expect(yield* repo.selectIds(scope, {})).toEqual([...ids].sort(compareIds))
      }))

    it.effect("findMany reads the scope's wallets among the IDs, ascending, each once", () =>
      Effect.gen(function*() {
        const repo = yield* WalletRepository
        const fixtures = yield* StorageFixtures
        const scope = yield* fixtures.scope("nile")
        const [w1, w2, w3] = yield* Effect.forEach([1, 2, 3], () => fixtures.wallet(scope))
        const theirs = yield* fixtures.wallet(yield* fixtures.scope("nile"))
        const found = yield* repo.findMany(scope, [w3!.id, w1!.id, w3!.id, theirs.id, unknownId])
        expect(found.map((w) => w.id)).toEqual([w1!.id, w3!.id])
        expect(found[0]).toEqual(Option.getOrThrow(yield* repo.find(scope, w1!.id)))
        expect(yield* repo.findMany(scope, [])).toEqual([])
        expect((yield* repo.findMany(scope, [w2!.id])).map((w) => w.id)).toEqual([w2!.id])
      }))

    it.effect("an unfinished sweep makes a wallet collecting and the collection wallet is the destination: both are unavailable", () =>
      Effect.gen(function*() {
        const repo = yield* WalletRepository
        const settings = yield* SettingsRepository
        const fixtures = yield* StorageFixtures
        const scope = yield* fixtures.scope("nile")
        const otherNetwork = otherNetworkOf(scope)
        const [sweeping, swept, collection, idle] = yield* Effect.forEach([1, 2, 3, 4], () => fixtures.wallet(scope))
        const elsewhere = yield* fixtures.wallet(otherNetwork)
        yield* fixtures.seedSweepTask(scope, sweeping!, { status: "pending" })
        yield* fixtures.seedSweepTask(scope, swept!, { status: "succeeded" })
        yield* fixtures.seedSweepTask(scope, swept!, { status: "cancelled" })
        yield* settings.setCollection(scope, collection!.address, collection!.id)
        const all = [idle!, collection!, swept!, sweeping!].map((w) => w.id)
        const read = yield* repo.list(scope, query())
        expect(read.items.map((w) => [w.id, w.collectionStatus, w.isCollectionAddress, w.destination])).toEqual([
          [idle!.id, "idle", false, collection!.address],
          [collection!.id, "idle", true, collection!.address],
          [swept!.id, "idle", false, collection!.address],
          [sweeping!.id, "collecting", false, collection!.address]
        ])
        expect(Option.map(yield* repo.find(scope, sweeping!.id), (w) => w.collectionStatus)).toEqual(Option.some("collecting"))
        expect(Option.map(yield* repo.findByAddress(scope, collection!.address), (w) => w.isCollectionAddress)).toEqual(Option.some(true))
        expect(yield* repo.unavailable(scope, [...all, sweeping!.id, elsewhere.id, unknownId])).toEqual([sweeping!.id, collection!.id].sort(compareIds))
        expect(yield* repo.unavailable(scope, [])).toEqual([])
        expect(yield* repo.unavailable(otherNetwork, all)).toEqual([])
        // The other network's wallets see their own (absent) settings.
        expect(Option.map(yield* repo.find(otherNetwork, elsewhere.id), (w) => [w.destination, w.isCollectionAddress])).toEqual(Option.some(["", false]))
        // An external collection address frees the wallet and is every wallet's destination.
        yield* settings.setCollection(scope, "TExternalCollection", null)
        expect(yield* repo.unavailable(scope, all)).toEqual([sweeping!.id])
        expect((yield* repo.findMany(scope, all)).map((w) => [w.destination, w.isCollectionAddress])).toEqual(Array(4).fill(["TExternalCollection", false]))
      }))

    it.effect("summary counts and sums the scope's wallets; an unsynced balance counts as none", () =>
      Effect.gen(function*() {
        const repo = yield* WalletRepository
        const fixtures = yield* StorageFixtures
        const scope = yield* fixtures.scope("nile")
        const otherNetwork = otherNetworkOf(scope)
        const empty = { walletCount: 0, unsyncedWalletCount: 0, balanceUsdt: 0n, balanceTrx: 0n, collectedUsdt: 0n }
        expect(yield* repo.summary(scope)).toEqual(empty)
        const rich = yield* fixtures.wallet(scope, { balanceUsdt: maxAmount, balanceTrx: 7n, balanceBlock: 10n })
        yield* fixtures.wallet(scope, { balanceUsdt: maxAmount, balanceTrx: 0n, balanceBlock: 3n })
        yield* fixtures.wallet(scope)
        yield* fixtures.walletCollected(rich.id, 100n, new Date("2026-01-01T00:00:00Z"))
        yield* fixtures.wallet(otherNetwork, { balanceUsdt: 5n, balanceTrx: 5n, balanceBlock: 9n })
        expect(yield* repo.summary(scope)).toEqual({
          walletCount: 3,
          unsyncedWalletCount: 1,
          balanceUsdt: 2n * maxAmount,
          balanceTrx: 7n,
          collectedUsdt: 100n
        })
        expect(yield* repo.summary(otherNetwork)).toEqual({ ...empty, walletCount: 1, balanceUsdt: 5n, balanceTrx: 5n })
      }))

    it.effect("insert with a limit refuses the tenant's wallet past it, counting all its networks and no other tenant's", () =>
      Effect.gen(function*() {
        const repo = yield* WalletRepository
        const { otherNetwork, otherTenant, scope } = yield* scopeAndStrangers
        const add = (into: TenantScope, label: string) => repo.insert(into, newWallet(label, `TLimit${into.tenantId}${into.network}${label}`), 3)
        yield* add(scope, "a")
        yield* add(scope, "b")
        yield* add(otherTenant, "a")
        yield* add(otherNetwork, "a")
        expect(yield* Effect.either(add(scope, "c"))).toEqual(Either.left(new WalletLimitReached({ limit: 3 })))
        expect(yield* Effect.either(add(otherNetwork, "b"))).toEqual(Either.left(new WalletLimitReached({ limit: 3 })))
        // The limit is checked before the custom ID: a full tenant hears of its limit.
        expect(yield* Effect.either(add(scope, "a"))).toEqual(Either.left(new WalletLimitReached({ limit: 3 })))
        expect((yield* repo.selectIds(scope, {})).length + (yield* repo.selectIds(otherNetwork, {})).length).toBe(3)
        yield* add(otherTenant, "b")
        // Without a limit nothing is counted.
        yield* repo.insert(scope, newWallet("c", `TLimit${scope.tenantId}nolimit`))
      }))

    it.effect("selectIds with a limit gives the lowest IDs", () =>
      Effect.gen(function*() {
        const repo = yield* WalletRepository
        const fixtures = yield* StorageFixtures
        const scope = yield* fixtures.scope("nile")
        const ids = (yield* Effect.forEach([1, 2, 3, 4], () => fixtures.wallet(scope))).map((w) => w.id).sort(compareIds)
        expect(yield* repo.selectIds(scope, {}, 2)).toEqual(ids.slice(0, 2))
        expect(yield* repo.selectIds(scope, {}, 10)).toEqual(ids)
      }))
  })
