import { expect, layer } from "@effect/vitest"
import { Effect, type Layer, Option } from "effect"
import type { DepositId } from "./Deposit.js"
import { type DepositQuery, DepositRepository } from "./DepositRepository.js"
import type { TenantScope } from "../tenants/Scope.js"
import { StorageFixtures } from "../testing/StorageFixtures.js"

const query = (fields: Partial<DepositQuery> = {}): DepositQuery => ({ page: 1, pageSize: 20, address: "", ...fields })

const listed = (scope: TenantScope, fields: Partial<DepositQuery> = {}) =>
  Effect.flatMap(DepositRepository, (repo) => repo.list(scope, query(fields))).pipe(
    Effect.map((page) => ({ ids: page.items.map((d) => d.id), total: page.total }))
  )

/** An address of 34 characters that shares no run of three with another letter's. */
const addressOf = (letter: string, scope: TenantScope) => `T${letter.toUpperCase()}${`${letter}${scope.tenantId}`.padEnd(32, letter)}`

/** A tenant on nile with two wallets; `n` deposits alternating between them (amounts 1, 2, ...), IDs ascending. */
const withDeposits = (n: number) =>
  Effect.gen(function*() {
    const fixtures = yield* StorageFixtures
    const scope = yield* fixtures.scope("nile")
    const a = yield* fixtures.wallet(scope, { address: addressOf("a", scope) })
    const b = yield* fixtures.wallet(scope, { address: addressOf("b", scope) })
    const seeded = yield* Effect.forEach(Array.from({ length: n }, (_, i) => i), (i) =>
      fixtures.seedDeposit(scope, i % 2 === 0 ? a : b, { amount: BigInt(i + 1) }))
    return { scope, a, b, ids: seeded.map((d) => d.id) }
  })

const source = "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t"
const contract = "TXYZopYRdj2D9XRtbG411XZZ3kM5VkAeBf"

/**
 * What every DepositRepository must do, run against each implementation with the storage it is
 * given. The storage is shared by the tests of one run; every read is of a scope the test made.
 */
export const depositRepositoryContract = <E>(name: string, storage: Layer.Layer<DepositRepository | StorageFixtures, E>) =>
  layer(storage)(`DepositRepository contract (${name})`, (it) => {
    it.effect("find: the deposit with every column as stored, in its own scope only", () =>
      Effect.gen(function*() {
        const repo = yield* DepositRepository
        const fixtures = yield* StorageFixtures
        const scope = yield* fixtures.scope("nile")
        const wallet = yield* fixtures.wallet(scope, { customId: "shop-1" })
        const solid = yield* fixtures.seedDeposit(scope, wallet, {
          amount: 123_456_789n, txid: "ab".repeat(32), logIndex: 3, blockNumber: 65_000_123n, blockHash: "cd".repeat(32),
          blockTime: new Date("2026-03-04T05:06:07.890Z"), createdAt: new Date("2026-03-04T05:06:10Z"), source, contract
        })
        const reverted = yield* fixtures.seedDeposit(scope, wallet, {
          status: "reverted", revision: 2, amount: 2n ** 256n - 1n, logIndex: 0, blockNumber: 9_223_372_036_854_775_807n,
          blockHash: null, blockTime: new Date("2026-03-04T05:07:00Z"), createdAt: new Date("2026-03-04T05:07:09.001Z"),
          confirmationType: "block_3", confirmations: 5, source, contract
        })
        const common = { tenantId: scope.tenantId, network: "nile", walletId: wallet.id, customId: "shop-1", address: wallet.address, source, contract }
        expect(yield* repo.find(scope, solid.id)).toEqual(Option.some({
          id: solid.id, eventId: solid.eventId, status: "confirmed", ...common, amount: 123_456_789n, txid: "ab".repeat(32), logIndex: 3,
          blockNumber: 65_000_123n, blockHash: "cd".repeat(32), blockTime: new Date("2026-03-04T05:06:07.890Z"),
          createdAt: new Date("2026-03-04T05:06:10Z"), revision: 1, confirmationType: "solidified", confirmations: null
        }))
        expect(yield* repo.find(scope, reverted.id)).toEqual(Option.some({
          id: reverted.id, eventId: reverted.eventId, status: "reverted", ...common, amount: 2n ** 256n - 1n, txid: reverted.txid,
          logIndex: 0, blockNumber: 9_223_372_036_854_775_807n, blockHash: null, blockTime: new Date("2026-03-04T05:07:00Z"),
          createdAt: new Date("2026-03-04T05:07:09.001Z"), revision: 2, confirmationType: "block_3", confirmations: 5
        }))
        // Another tenant's scope, the same tenant's other network, an ID no deposit has.
        const stranger = yield* fixtures.scope("nile")
        expect(yield* repo.find(stranger, solid.id)).toEqual(Option.none())
        expect(yield* repo.find({ ...scope, network: "main" }, solid.id)).toEqual(Option.none())
        expect(yield* repo.find(scope, "9223372036854775807" as DepositId)).toEqual(Option.none())
      }))

    it.effect("list: deposit ID descending, paged by size and offset; a page past the last is empty with the true total", () =>
      Effect.gen(function*() {
        const { ids, scope } = yield* withDeposits(25)
        const desc = [...ids].reverse()
        expect(yield* listed(scope)).toEqual({ ids: desc.slice(0, 20), total: 25 })
        expect(yield* listed(scope, { page: 2 })).toEqual({ ids: desc.slice(20), total: 25 })
        expect(yield* listed(scope, { page: 3, pageSize: 7 })).toEqual({ ids: desc.slice(14, 21), total: 25 })
        expect(yield* listed(scope, { pageSize: 100 })).toEqual({ ids: desc, total: 25 })
        expect(yield* listed(scope, { pageSize: 1 })).toEqual({ ids: [desc[0]], total: 25 })
        for (const beyond of [{ page: 3 }, { page: 26, pageSize: 1 }, { page: 999_999_999, pageSize: 100 }]) {
          expect(yield* listed(scope, beyond)).toEqual({ ids: [], total: 25 })
        }
        const repo = yield* DepositRepository
        const page = yield* repo.list(scope, query({ pageSize: 2 }))
        expect(page.items.map((d) => d.amount)).toEqual([25n, 24n])
      }))

    it.effect("list: only the scope's deposits; an empty scope is an empty page", () =>
      Effect.gen(function*() {
        const fixtures = yield* StorageFixtures
        const scope = yield* fixtures.scope("nile")
        expect(yield* listed(scope)).toEqual({ ids: [], total: 0 })
        const onMain = { ...scope, network: "main" } as const
        const nileWallet = yield* fixtures.wallet(scope)
        const mainWallet = yield* fixtures.wallet(onMain)
        const mine = yield* Effect.forEach([1, 2], () => fixtures.seedDeposit(scope, nileWallet))
        const mineOnMain = yield* fixtures.seedDeposit(onMain, mainWallet)
        const other = yield* fixtures.scope("nile")
        yield* fixtures.seedDeposit(other, yield* fixtures.wallet(other))
        expect(yield* listed(scope)).toEqual({ ids: [mine[1]!.id, mine[0]!.id], total: 2 })
        expect(yield* listed(onMain)).toEqual({ ids: [mineOnMain.id], total: 1 })
      }))

    it.effect("list: the address filter is a case-insensitive contains on the receiving address only, % and _ wildcards", () =>
      Effect.gen(function*() {
        const { a, b, ids, scope } = yield* withDeposits(6)
        // Deposits alternate a, b, a, b, ...: a holds the even positions.
        const ofA = ids.filter((_, i) => i % 2 === 0).reverse()
        const ofB = ids.filter((_, i) => i % 2 === 1).reverse()
        const all = [...ids].reverse()
        const middle = a.address.slice(5, 15)
        const length = a.address.length
        const cases: ReadonlyArray<[string, ReadonlyArray<DepositId>]> = [
          [a.address, ofA],
          [b.address, ofB],
          [middle, ofA],
          [middle.toLowerCase(), ofA],
          [middle.toUpperCase(), ofA],
          [`${a.address.slice(0, 4)}%${a.address.slice(-4)}`, ofA],
          [`${a.address.slice(0, 10)}_${a.address.slice(11)}`, ofA],
          ["%", all],
          ["_".repeat(length), all],
          ["_".repeat(length + 1), []],
          [`${a.address}x`, []],
          // Source and contract of every seeded deposit: never matched.
          [source, []],
          [contract.slice(0, 20), []],
          ["\\", []],
          [".*", []],
          ["é".repeat(50), []]
        ]
        for (const [address, expected] of cases) {
          expect(yield* listed(scope, { address }), address).toEqual({ ids: expected, total: expected.length })
        }
        expect(yield* listed(scope, { address: a.address, page: 2, pageSize: 2 })).toEqual({ ids: ofA.slice(2), total: 3 })
      }))

    it.effect("list: a backslash in the filter stands for itself", () =>
      Effect.gen(function*() {
        const fixtures = yield* StorageFixtures
        const scope = yield* fixtures.scope("nile")
        const odd = yield* fixtures.wallet(scope, { address: `T\\_%Odd${scope.tenantId}` })
        const plain = yield* fixtures.wallet(scope, { address: `Tx_%Odd${scope.tenantId}` })
        const inOdd = yield* fixtures.seedDeposit(scope, odd)
        const inPlain = yield* fixtures.seedDeposit(scope, plain)
        expect((yield* listed(scope, { address: "t\\" })).ids).toEqual([inOdd.id])
        // The backslash does not escape the wildcard after it.
        expect((yield* listed(scope, { address: "\\_%odd" })).ids).toEqual([inOdd.id])
        expect((yield* listed(scope, { address: "x_%odd" })).ids).toEqual([inPlain.id])
        expect((yield* listed(scope, { address: "_%odd" })).ids).toEqual([inPlain.id, inOdd.id])
      }))

    it.effect("confirmedTotal: the scope's confirmed USDT; reverted deposits and other scopes apart; 0 when none", () =>
      Effect.gen(function*() {
        const repo = yield* DepositRepository
        const fixtures = yield* StorageFixtures
        const scope = yield* fixtures.scope("nile")
        expect(yield* repo.confirmedTotal(scope)).toBe(0n)
        const wallet = yield* fixtures.wallet(scope)
        yield* fixtures.seedDeposit(scope, wallet, { amount: 2n ** 70n })
        yield* fixtures.seedDeposit(scope, wallet, { amount: 5n })
        yield* fixtures.seedDeposit(scope, wallet, { amount: 1_000n, status: "reverted", revision: 2 })
        const onMain = { ...scope, network: "main" } as const
        yield* fixtures.seedDeposit(onMain, yield* fixtures.wallet(onMain), { amount: 7n })
        expect(yield* repo.confirmedTotal(scope)).toBe(2n ** 70n + 5n)
        expect(yield* repo.confirmedTotal(onMain)).toBe(7n)
        expect(yield* repo.confirmedTotal(yield* fixtures.scope("nile"))).toBe(0n)
      }))
  })
