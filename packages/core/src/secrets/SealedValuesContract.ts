import { describe, expect } from "@effect/vitest"
import { Effect, type Layer, Option } from "effect"
import type { Network } from "../kernel/Network.js"
import type { Sealed } from "./SecretBox.js"
import { type SealedEntry, type SealedOwner, SealedValues } from "./SealedValues.js"
import { TenantRepository } from "../tenants/TenantRepository.js"
import { ResourceAccounts } from "../delegation/ResourceAccounts.js"
import { localKey, tokenKey } from "../wallets/WalletKey.js"
import { onFreshStorage } from "../testing/FreshStorage.js"
import { StorageFixtures } from "../testing/StorageFixtures.js"

const sealed = (keyId: string, ...bytes: ReadonlyArray<number>): Sealed => ({ keyId, blob: Uint8Array.from(bytes) })
/** Compared by content: PostgreSQL answers a Buffer, memory a Uint8Array. */
const plain = (entry: SealedEntry) => ({ ...entry, sealed: { keyId: entry.sealed.keyId, blob: Array.from(entry.sealed.blob) } })
const plainSealed = (value: Sealed) => ({ keyId: value.keyId, blob: Array.from(value.blob) })

/**
 * Two tenants (the first on both networks, the second on nile), three wallets, the key check and
 * three resource accounts (two sealed here, one in a token), all distinct.
 */
const seed = Effect.gen(function*() {
  const repo = yield* TenantRepository
  const fixtures = yield* StorageFixtures
  const store = yield* SealedValues
  yield* store.createKeyCheck(sealed("k1", 1))
  const credential = (network: Network, n: number) => ({
    network,
    secret: sealed(n % 2 === 0 ? "k1" : "k2", 10, n),
    webhookKey: sealed("k2", 20, n),
    confirmationRule: "solidified" as const
  })
  const first = yield* repo.create("sealed-first", [credential("nile", 1), credential("main", 2)])
  const second = yield* repo.create("sealed-second", [credential("nile", 3)])
  const scope = { tenantId: second.id, network: "nile" as const }
  const wallets = [
    yield* fixtures.wallet(scope, { address: "TSealedWalletA", key: localKey(sealed("k1", 30, 1)) }),
    yield* fixtures.wallet(scope, { address: "TSealedWalletB", key: localKey(sealed("k3", 30, 2)) }),
    yield* fixtures.wallet(scope, { address: "TSealedWalletC", key: localKey(sealed("k1", 30, 3)) })
  ]
  const accounts = yield* ResourceAccounts
  const at = new Date("2026-11-29T00:00:00Z")
  // Stored in this order, so their row ids ascend in it: a walk visits them so.
  const sealedAccounts = [
    yield* accounts.create({ network: "main", tenantId: second.id, address: "TStakeMainB".padEnd(34, "x"), key: localKey(sealed("k3", 40, 1)), createdAt: at }),
    yield* accounts.create({ network: "nile", tenantId: null, address: "TStakeNiLe".padEnd(34, "x"), key: localKey(sealed("k1", 40, 2)), createdAt: at })
  ]
  yield* accounts.create({ network: "main", tenantId: null, address: "TTokenStakeMain".padEnd(34, "x"), key: tokenKey("collector-resource-main-default"), createdAt: at })
  // A resource account's row id is the store's to draw: taken from the walk, it must be int64 text
  // and ascend in the order the accounts were stored.
  const accountRowIds = (yield* store.page(null, 100))
    .filter((entry) => entry.position.column === "resource_accounts.sealed_key")
    .map((entry) => entry.position.rowId)
  expect(accountRowIds).toHaveLength(2)
  for (const rowId of accountRowIds) expect(rowId).toMatch(/^[1-9][0-9]{0,18}$/)
  expect(BigInt(accountRowIds[0]!) < BigInt(accountRowIds[1]!)).toBe(true)
  const appsOf = [...first.apps.map((app) => ({ app, tenant: first })), ...second.apps.map((app) => ({ app, tenant: second }))]
    .sort((a, b) => Number(BigInt(a.app.appId) - BigInt(b.app.appId)))
  const n = (network: Network, tenantId: string) => tenantId === first.id ? (network === "nile" ? 1 : 2) : 3
  const owner = (tag: "AppSecret" | "WebhookKey", tenant: { id: string }, network: Network): SealedOwner =>
    ({ _tag: tag, tenantId: tenant.id, network }) as SealedOwner
  // What a walk must answer, written from the inputs: column order, then row id.
  const expected: Array<SealedEntry> = [
    { position: { column: "master_key_check.sealed", rowId: "1" }, owner: { _tag: "KeyCheck" }, sealed: sealed("k1", 1) },
    ...appsOf.map(({ app, tenant }): SealedEntry => ({
      position: { column: "apps.secret_sealed", rowId: app.appId },
      owner: owner("AppSecret", tenant, app.network),
      sealed: credential(app.network, n(app.network, tenant.id)).secret
    })),
    ...appsOf.map(({ app, tenant }): SealedEntry => ({
      position: { column: "apps.webhook_key_sealed", rowId: app.appId },
      owner: owner("WebhookKey", tenant, app.network),
      sealed: credential(app.network, n(app.network, tenant.id)).webhookKey
    })),
    ...wallets.map((wallet, i): SealedEntry => ({
      position: { column: "wallet_keys.sealed_key", rowId: wallet.id },
      owner: { _tag: "WalletKey", address: wallet.address },
      sealed: sealed(i === 1 ? "k3" : "k1", 30, i + 1)
    })),
    ...sealedAccounts.map((account, i): SealedEntry => ({
      position: { column: "resource_accounts.sealed_key", rowId: accountRowIds[i]! },
      owner: { _tag: "ResourceAccountKey", address: account.address },
      sealed: sealed(i === 0 ? "k3" : "k1", 40, i + 1)
    }))
  ]
  return { expected, first }
})

/**
 * What every SealedValues must do, run against each implementation. A walk reads the whole store,
 * so each test runs on a store of its own.
 */
export const sealedValuesContract = <E>(
  name: string,
  storage: Layer.Layer<SealedValues | TenantRepository | StorageFixtures | ResourceAccounts, E>
) =>
  describe(`SealedValues contract (${name})`, () => {
    const test = onFreshStorage(storage)

    test("walks every sealed value in column order and by row id, with its owner, in pages of any size", () =>
      Effect.gen(function*() {
        const store = yield* SealedValues
        expect(yield* store.page(null, 10)).toEqual([])
        const { expected } = yield* seed
        const all = (yield* store.page(null, 100)).map(plain)
        expect(all).toEqual(expected.map(plain))
        for (const size of [1, 2, 3, 7]) {
          const walked: Array<ReturnType<typeof plain>> = []
          let after = null as SealedEntry["position"] | null
          for (;;) {
            const page = yield* store.page(after, size)
            expect(page.length).toBeLessThanOrEqual(size)
            if (page.length === 0) break
            walked.push(...page.map(plain))
            after = page[page.length - 1]!.position
          }
          expect(walked).toEqual(expected.map(plain))
        }
        // From a position in the middle of a column, and from the last one.
        const middle = expected[2]!.position
        expect((yield* store.page(middle, 100)).map(plain)).toEqual(expected.slice(3).map(plain))
        expect(yield* store.page(expected[expected.length - 1]!.position, 100)).toEqual([])
      }))

    test("replaces a value only while it is the one expected, in every column, and touches nothing else", () =>
      Effect.gen(function*() {
        const store = yield* SealedValues
        const { expected } = yield* seed
        const changed = expected.map((entry, i) => ({ ...entry, sealed: sealed("new", 99, i) }))
        for (const [i, entry] of expected.entries()) {
          // A value read before someone else changed it: the write is refused.
          expect(yield* store.replace(entry.position, sealed(entry.sealed.keyId, 0), changed[i]!.sealed)).toBe(false)
          expect(yield* store.replace(entry.position, { ...entry.sealed, keyId: "other" }, changed[i]!.sealed)).toBe(false)
        }
        expect((yield* store.page(null, 100)).map(plain)).toEqual(expected.map(plain))
        for (const [i, entry] of expected.entries()) {
          expect(yield* store.replace(entry.position, entry.sealed, changed[i]!.sealed)).toBe(true)
          // Done once: the old value is no longer there to replace.
          expect(yield* store.replace(entry.position, entry.sealed, changed[i]!.sealed)).toBe(false)
          const now = (yield* store.page(null, 100)).map(plain)
          expect(now).toEqual([...changed.slice(0, i + 1), ...expected.slice(i + 1)].map(plain))
        }
        expect(yield* store.replace({ column: "wallet_keys.sealed_key", rowId: "999999" }, changed[0]!.sealed, sealed("x", 1))).toBe(false)
      }))

    test("counts the values under each key id, the key check included", () =>
      Effect.gen(function*() {
        const store = yield* SealedValues
        expect(yield* store.countByKeyId).toEqual([])
        yield* seed
        // k1: the check, the main secret, two wallet keys, a resource account; k2: two secrets, three
        // webhook keys; k3: a wallet key, a resource account. The token's account seals nothing here.
        expect(yield* store.countByKeyId).toEqual([{ keyId: "k1", count: 5 }, { keyId: "k2", count: 5 }, { keyId: "k3", count: 2 }])
      }))

    test("keeps the first key check stored", () =>
      Effect.gen(function*() {
        const store = yield* SealedValues
        expect(yield* store.keyCheck).toEqual(Option.none())
        expect(plainSealed(yield* store.createKeyCheck(sealed("first", 1, 2)))).toEqual(plainSealed(sealed("first", 1, 2)))
        expect(plainSealed(yield* store.createKeyCheck(sealed("second", 3)))).toEqual(plainSealed(sealed("first", 1, 2)))
        expect(Option.map(yield* store.keyCheck, plainSealed)).toEqual(Option.some(plainSealed(sealed("first", 1, 2))))
      }))

    test("keeps one re-seal progress: saved, overwritten, cleared", () =>
      Effect.gen(function*() {
        const store = yield* SealedValues
        expect(yield* store.progress).toEqual(Option.none())
        const started = { keyId: "k9", after: null, resealed: 0, current: 0, changed: 0, unreadable: 0 }
        yield* store.saveProgress(started)
        expect(yield* store.progress).toEqual(Option.some(started))
        const later = {
          keyId: "k9",
          after: { column: "wallet_keys.sealed_key" as const, rowId: "9000000000000000001" },
          resealed: 3_000_000,
          current: 2,
          changed: 1,
          unreadable: 4
        }
        yield* store.saveProgress(later)
        expect(yield* store.progress).toEqual(Option.some(later))
        yield* store.clearProgress
        expect(yield* store.progress).toEqual(Option.none())
      }))
  })
