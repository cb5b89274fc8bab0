import { localKey } from "../wallets/WalletKey.js"
import { expect, layer } from "@effect/vitest"
import { Deferred, Effect, Either, Fiber, type Layer, Option, Ref, TestServices } from "effect"
import { IdempotencyConflict, type IdempotencyKey, IdempotencyStore, type SavedOutcome } from "./Idempotency.js"
import type { TenantScope } from "../tenants/Scope.js"
import { WalletRepository } from "../wallets/WalletRepository.js"
import { dies } from "../testing/Defects.js"
import { StorageFixtures } from "../testing/StorageFixtures.js"

const keyOf = (scope: TenantScope, requestId: string, operation = "contract.createWallet"): IdempotencyKey => ({
  tenantId: scope.tenantId,
  network: scope.network,
  operation,
  requestId
})

const addressOf = (scope: TenantScope, label: string) => `TIdempotent${scope.tenantId}${scope.network}${label}`

/** A real write inside the work: a wallet of the scope, answered with its ID. */
const createWallet = (scope: TenantScope, label: string) =>
  Effect.flatMap(WalletRepository, (wallets) =>
    Effect.map(
      wallets.insert(scope, { customId: label, address: addressOf(scope, label), key: localKey({ keyId: "k", blob: new Uint8Array([1]) }) }),
      (wallet): SavedOutcome => ({ _tag: "Succeeded", json: JSON.stringify({ id: wallet.id }) })
    ))

const walletCount = (scope: TenantScope) => Effect.flatMap(WalletRepository, (wallets) => Effect.map(wallets.selectIds(scope, {}), (ids) => ids.length))

const stored = (scope: TenantScope, label: string) =>
  Effect.flatMap(WalletRepository, (wallets) => Effect.map(wallets.findByAddress(scope, addressOf(scope, label)), Option.isSome))

/**
 * What every IdempotencyStore must do, with real writes inside the work (wallets through the
 * WalletRepository of the same storage): they happen in the key's transaction, so they stay or
 * go with it.
 */
export const idempotencyStoreContract = <E>(name: string, storage: Layer.Layer<IdempotencyStore | WalletRepository | StorageFixtures, E>) =>
  layer(storage)(`IdempotencyStore contract (${name})`, (it) => {
    it.effect("runs the work once per key and replays its saved outcome", () =>
      Effect.gen(function*() {
        const store = yield* IdempotencyStore
        const scope = yield* (yield* StorageFixtures).scope("nile")
        const first = yield* store.once(keyOf(scope, "r-1"), "d1", createWallet(scope, "first"))
        const again = yield* store.once(keyOf(scope, "r-1"), "d1", createWallet(scope, "again"))
        expect(first._tag).toBe("Succeeded")
        expect(again).toEqual(first)
        expect([yield* stored(scope, "first"), yield* stored(scope, "again"), yield* walletCount(scope)]).toEqual([true, false, 1])
      }))

    it.effect("the key is the tenant, network, operation and request ID together", () =>
      Effect.gen(function*() {
        const store = yield* IdempotencyStore
        const fixtures = yield* StorageFixtures
        const scope = yield* fixtures.scope("nile")
        const otherTenant = yield* fixtures.scope("nile")
        const otherNetwork: TenantScope = { tenantId: scope.tenantId, network: "main" }
        const outcomes = [
          yield* store.once(keyOf(scope, "r-1"), "d1", createWallet(scope, "a")),
          yield* store.once(keyOf(scope, "r-2"), "d1", createWallet(scope, "b")),
          yield* store.once(keyOf(scope, "r-1", "contract.other"), "d1", createWallet(scope, "c")),
          yield* store.once(keyOf(otherNetwork, "r-1"), "d1", createWallet(otherNetwork, "a")),
          yield* store.once(keyOf(otherTenant, "r-1"), "d1", createWallet(otherTenant, "a"))
        ]
        expect(new Set(outcomes.map((o) => o.json)).size).toBe(5)
        expect([yield* walletCount(scope), yield* walletCount(otherNetwork), yield* walletCount(otherTenant)]).toEqual([3, 1, 1])
      }))

    it.effect("the same key with other parameters is IdempotencyConflict and runs nothing", () =>
      Effect.gen(function*() {
        const store = yield* IdempotencyStore
        const scope = yield* (yield* StorageFixtures).scope("nile")
        yield* store.once(keyOf(scope, "r-1"), "d1", createWallet(scope, "first"))
        const conflict = yield* Effect.either(store.once(keyOf(scope, "r-1"), "d2", createWallet(scope, "second")))
        expect(conflict).toEqual(Either.left(new IdempotencyConflict({ requestId: "r-1" })))
        expect([yield* stored(scope, "second"), yield* walletCount(scope)]).toEqual([false, 1])
      }))

    it.effect("a Rejected outcome keeps the key and the rejection but none of the work's writes", () =>
      Effect.gen(function*() {
        const store = yield* IdempotencyStore
        const scope = yield* (yield* StorageFixtures).scope("nile")
        const rejected: SavedOutcome = { _tag: "Rejected", json: "{\"_tag\":\"CustomIdTaken\"}" }
        const first = yield* store.once(keyOf(scope, "r-1"), "d1", Effect.as(createWallet(scope, "rejected"), rejected))
        expect(first).toEqual(rejected)
        expect(yield* stored(scope, "rejected")).toBe(false)
        // The retry gets the rejection again; its work never runs.
        expect(yield* store.once(keyOf(scope, "r-1"), "d1", createWallet(scope, "retry"))).toEqual(rejected)
        expect(yield* walletCount(scope)).toBe(0)
        const conflict = yield* Effect.either(store.once(keyOf(scope, "r-1"), "d2", createWallet(scope, "retry")))
        expect(conflict).toEqual(Either.left(new IdempotencyConflict({ requestId: "r-1" })))
      }))

    it.effect("a failed or dying work keeps nothing: its writes are gone and a retry runs the work", () =>
      Effect.gen(function*() {
        const store = yield* IdempotencyStore
        const scope = yield* (yield* StorageFixtures).scope("nile")
        const failing = Effect.zipRight(createWallet(scope, "failed"), Effect.fail("storage down" as const))
        expect(yield* Effect.either(store.once(keyOf(scope, "r-1"), "d1", failing))).toEqual(Either.left("storage down"))
        expect(yield* stored(scope, "failed")).toBe(false)
        expect(yield* dies(store.once(keyOf(scope, "r-1"), "d1", Effect.zipRight(createWallet(scope, "died"), Effect.die("bug"))))).toBe(true)
        expect(yield* stored(scope, "died")).toBe(false)
        // Another digest now: nothing of the failed runs was kept, not even the key.
        const retry = yield* store.once(keyOf(scope, "r-1"), "d2", createWallet(scope, "retry"))
        expect(retry._tag).toBe("Succeeded")
        expect([yield* stored(scope, "retry"), yield* walletCount(scope)]).toEqual([true, 1])
      }))

    it.effect("concurrent duplicates wait for the first and get its saved outcome; the work runs once", () =>
      Effect.gen(function*() {
        const store = yield* IdempotencyStore
        const scope = yield* (yield* StorageFixtures).scope("nile")
        const started = yield* Deferred.make<void>()
        const release = yield* Deferred.make<void>()
        const runs = yield* Ref.make(0)
        const work = (label: string) =>
          Effect.gen(function*() {
            yield* Ref.update(runs, (n) => n + 1)
            const outcome = yield* createWallet(scope, label)
            yield* Deferred.succeed(started, undefined)
            yield* Deferred.await(release)
            return outcome
          })
        const first = yield* Effect.fork(store.once(keyOf(scope, "r-1"), "d1", work("first")))
        yield* Deferred.await(started)
        const duplicates = yield* Effect.fork(
          Effect.all(Array.from({ length: 20 }, (_, i) => store.once(keyOf(scope, "r-1"), "d1", work(`duplicate-${i}`))), { concurrency: "unbounded" })
        )
        // Time for the duplicates to reach the store and wait there while the first is still open.
        yield* TestServices.provideLive(Effect.sleep("100 millis"))
        yield* Deferred.succeed(release, undefined)
        const outcome = yield* Fiber.join(first)
        const answers = yield* Fiber.join(duplicates)
        expect(new Set(answers.map((a) => a.json))).toEqual(new Set([outcome.json]))
        expect([yield* Ref.get(runs), yield* walletCount(scope)]).toEqual([1, 1])
      }))

    it.effect("prune deletes finished records created before its time, at most its limit at a time; a pruned key is new again", () =>
      Effect.gen(function*() {
        const store = yield* IdempotencyStore
        const scope = yield* (yield* StorageFixtures).scope("nile")
        for (const n of [1, 2, 3]) yield* store.once(keyOf(scope, `prune-${n}`), "d1", createWallet(scope, `p${n}`))
        const conflicts = (n: number) =>
          Effect.map(Effect.either(store.once(keyOf(scope, `prune-${n}`), "other", Effect.succeed<SavedOutcome>({ _tag: "Succeeded", json: "{}" }))), Either.isLeft)
        // Nothing is older than the epoch: every record stays.
        expect(yield* store.prune(new Date(0), 10)).toBe(0)
        expect(yield* conflicts(1)).toBe(true)
        // Every record is older than a day from now: batches of one until none is left.
        const later = new Date(Date.now() + 86_400_000)
        const batches: Array<number> = []
        for (let i = 0; i < 1000; i++) {
          const n = yield* store.prune(later, 1)
          batches.push(n)
          if (n === 0) break
        }
        expect(batches.at(-1)).toBe(0)
        expect(new Set(batches.slice(0, -1))).toEqual(new Set([1]))
        expect(batches.length).toBeGreaterThanOrEqual(4)
        // The key is unknown again: other parameters run their work instead of conflicting.
        expect([yield* conflicts(1), yield* conflicts(2), yield* conflicts(3)]).toEqual([false, false, false])
        // The work's own writes are not the store's to prune.
        expect(yield* walletCount(scope)).toBe(3)
      }))

    it.effect("a prune while a request runs leaves that request whole: its outcome and writes are kept", () =>
      Effect.gen(function*() {
        const store = yield* IdempotencyStore
        const scope = yield* (yield* StorageFixtures).scope("nile")
        const started = yield* Deferred.make<void>()
        const release = yield* Deferred.make<void>()
        const first = yield* Effect.fork(store.once(
          keyOf(scope, "running"),
          "d1",
          Effect.zipLeft(createWallet(scope, "running"), Effect.zipRight(Deferred.succeed(started, undefined), Deferred.await(release)))
        ))
        yield* Deferred.await(started)
        // The store may answer at once (the running record is skipped) or after the request.
        const pruning = yield* Effect.fork(store.prune(new Date(Date.now() + 86_400_000), 1000))
        yield* TestServices.provideLive(Effect.sleep("50 millis"))
        yield* Deferred.succeed(release, undefined)
        const outcome = yield* Fiber.join(first)
        yield* Fiber.join(pruning)
        expect(outcome._tag).toBe("Succeeded")
        expect([yield* stored(scope, "running"), yield* walletCount(scope)]).toEqual([true, 1])
      }))
  })
