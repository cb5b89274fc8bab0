import { describe, expect } from "@effect/vitest"
import { Effect, Exit, Layer, Option } from "effect"
import type { TenantId } from "../kernel/Ids.js"
import type { Network } from "../kernel/Network.js"
import { appSecretContext, type SealContext, walletKeyContext, webhookKeyContext } from "./SealContext.js"
import { type Sealed, SecretBox } from "./SecretBox.js"
import { MasterKeyCheck, MasterKeyMismatch } from "./MasterKeyCheck.js"
import { Resealer } from "./Resealer.js"
import { ResourceAccounts } from "../delegation/ResourceAccounts.js"
import { localKey, tokenKey } from "../wallets/WalletKey.js"
import { sealContextOf } from "./SealedOwnerContext.js"
import { type SealedEntry, SealedValues } from "./SealedValues.js"
import { TenantRepository } from "../tenants/TenantRepository.js"
import { onFreshStorage } from "../testing/FreshStorage.js"
import { StorageFixtures } from "../testing/StorageFixtures.js"

/**
 * The master keys of a rotation, each as the SecretBox a process would have: `old` (key A alone),
 * `rotated` (B current, A previous), `retired` (B alone, A removed) and `stranger` (a key C that
 * sealed nothing here).
 */
export interface RotationBoxes {
  readonly old: Layer.Layer<SecretBox>
  readonly rotated: Layer.Layer<SecretBox>
  readonly retired: Layer.Layer<SecretBox>
  readonly stranger: Layer.Layer<SecretBox>
}

const text = (s: string) => new TextEncoder().encode(s)
const decoded = (bytes: Uint8Array) => new TextDecoder().decode(bytes)

type Services = SealedValues | TenantRepository | StorageFixtures | ResourceAccounts

/**
 * What re-sealing and the key check do on each store, with the real SecretBox: every value moves to
 * the new key, the old key can then go, an interrupted run goes on where it stopped, a concurrent
 * change stays, and a wrong key is told at once. A walk reads the whole store: a store per test.
 */
export const resealContract = <E>(name: string, storage: Layer.Layer<Services, E>, boxes: RotationBoxes) =>
  describe(`Resealer and MasterKeyCheck (${name})`, () => {
    const test = onFreshStorage(storage)
    const under = (box: Layer.Layer<SecretBox>) => <A, E2, R>(effect: Effect.Effect<A, E2, R>) =>
      Effect.provide(effect, Layer.mergeAll(Resealer.layer, MasterKeyCheck.layer).pipe(Layer.provideMerge(box)))

    /**
     * Under key A: the key check, two tenants' apps, four wallets and a resource account sealed here
     * (another in a token), each value's plaintext naming its place.
     */
    const seed = Effect.gen(function*() {
      const box = yield* SecretBox
      const repo = yield* TenantRepository
      const fixtures = yield* StorageFixtures
      yield* Effect.flatMap(MasterKeyCheck, (check) => check.verify)
      const sealFor = (context: SealContext) => box.seal(text(`${context.table}.${context.column}:${context.row}`), context)
      const tenants: Array<TenantId> = []
      for (const [name, networks] of [["reseal-a", ["nile", "main"]], ["reseal-b", ["nile"]]] as const) {
        const id = yield* repo.reserveTenantId
        tenants.push(id)
        const apps = yield* Effect.forEach(networks, (network: Network) =>
          Effect.gen(function*() {
            return {
              network,
              secret: yield* sealFor(appSecretContext(id, network)),
              webhookKey: yield* sealFor(webhookKeyContext(id, network)),
              confirmationRule: "solidified" as const
            }
          }))
        yield* repo.create(name, apps, id)
      }
      for (let i = 0; i < 4; i++) {
        const address = `TResealWallet${i}`
        yield* fixtures.wallet({ tenantId: tenants[1]!, network: "nile" }, { address, key: localKey(yield* sealFor(walletKeyContext(address))) })
      }
      const accounts = yield* ResourceAccounts
      const createdAt = new Date("2026-11-29T00:00:00Z")
      // Sealed as the Signer opens it: for the address it signs for, like a wallet key.
      const key = localKey(yield* sealFor(walletKeyContext(stakeAddress)))
      yield* accounts.create({ network: "nile", tenantId: null, address: stakeAddress, key, createdAt })
      yield* accounts.create({ network: "main", tenantId: null, address: "TReseaLTokenStake".padEnd(34, "x"), key: tokenKey("reseal-stake"), createdAt })
    }).pipe(under(boxes.old))
    // A valid address: the store checks the form of an account's.
    const stakeAddress = "TReseaLStakeNiLe".padEnd(34, "x")
    // The check, 3 app secrets, 3 webhook keys, 4 wallet keys, 1 resource account key.
    const total = 12

    /** Every stored value opened for its own place (fails if one does not open). */
    const openAll = Effect.gen(function*() {
      const box = yield* SecretBox
      const entries = yield* Effect.flatMap(SealedValues, (store) => store.page(null, 1000))
      return yield* Effect.forEach(entries, (entry) =>
        Effect.map(box.open(entry.sealed, sealContextOf(entry.owner)), (bytes) => ({ position: entry.position, text: decoded(bytes) })))
    })

    const keyIdsOf = (box: Layer.Layer<SecretBox>) => Effect.map(SecretBox, (b) => b.keyIds).pipe(Effect.provide(box))

    test("re-seals every value under the new key; with the old key removed everything still opens, and a second run changes nothing", () =>
      Effect.gen(function*() {
        yield* seed
        const before = yield* openAll.pipe(under(boxes.old))
        const { current: a } = yield* keyIdsOf(boxes.old)
        const { current: b } = yield* keyIdsOf(boxes.rotated)
        const store = yield* SealedValues

        const status = yield* Effect.flatMap(Resealer, (r) => r.status).pipe(under(boxes.rotated))
        expect(status).toEqual({ currentKeyId: b, previousKeyIds: [a], counts: [{ keyId: a, count: total }], underOtherKeys: total, progress: Option.none() })

        const seen: Array<number> = []
        const report = yield* Effect.flatMap(Resealer, (r) =>
          r.reseal({ batchSize: 3, onProgress: (p) => Effect.sync(() => seen.push(p.resealed)) })).pipe(under(boxes.rotated))
        expect(report).toEqual({ keyId: b, after: report.after, resealed: total, current: 0, changed: 0, unreadable: 0, resumed: false })
        expect(report.after).toEqual({ column: "resource_accounts.sealed_key", rowId: report.after!.rowId })
        // Bounded batches, each reported: 3, 6, 9, 12.
        expect(seen).toEqual([3, 6, 9, 12])
        expect(yield* store.countByKeyId).toEqual([{ keyId: b, count: total }])
        expect(yield* store.progress).toEqual(Option.none())

        // Key A is gone: every value opens for its own place to what was sealed.
        expect(yield* openAll.pipe(under(boxes.retired))).toEqual(before)
        // The resource account's key still opens where the Signer opens it.
        const account = Option.getOrThrow(yield* Effect.flatMap(ResourceAccounts, (r) => r.find("nile", null)))
        const opened = yield* Effect.flatMap(SecretBox, (box) =>
          account.key.store === "local" ? box.open(account.key.sealed, walletKeyContext(stakeAddress)) : Effect.die("not sealed here")
        ).pipe(Effect.provide(boxes.retired))
        expect(decoded(opened)).toBe(`wallet_keys.sealed_key:${stakeAddress}`)
        expect((yield* Effect.flatMap(MasterKeyCheck, (c) => c.verify).pipe(under(boxes.retired))).keyCheck).toBe("opened")
        const after = yield* Effect.flatMap(Resealer, (r) => r.status).pipe(under(boxes.retired))
        expect(after.underOtherKeys).toBe(0)

        // Idempotent: a second run finds every value current and writes nothing.
        const stored = (yield* store.page(null, 1000)).map((e) => Array.from(e.sealed.blob))
        const again = yield* Effect.flatMap(Resealer, (r) => r.reseal({ batchSize: 100 })).pipe(under(boxes.retired))
        expect([again.resealed, again.current]).toEqual([0, total])
        expect((yield* store.page(null, 1000)).map((e) => Array.from(e.sealed.blob))).toEqual(stored)
      }))

    test("goes on from where an interrupted run stopped", () =>
      Effect.gen(function*() {
        yield* seed
        const store = yield* SealedValues
        const { current: b } = yield* keyIdsOf(boxes.rotated)
        const stopped = yield* Effect.flatMap(Resealer, (r) =>
          r.reseal({ batchSize: 4, onProgress: (p) => p.resealed >= 8 ? Effect.interrupt : Effect.void })).pipe(under(boxes.rotated), Effect.exit)
        expect(Exit.isInterrupted(stopped)).toBe(true)
        const saved = Option.getOrThrow(yield* store.progress)
        expect([saved.keyId, saved.resealed]).toEqual([b, 8])
        // The second run starts after the 8 values already done: had it started over, they would count as current.
        const resumed = yield* Effect.flatMap(Resealer, (r) => r.reseal({ batchSize: 4 })).pipe(under(boxes.rotated))
        expect([resumed.resumed, resumed.resealed, resumed.current]).toEqual([true, total, 0])
        expect(yield* store.countByKeyId).toEqual([{ keyId: b, count: total }])
        yield* openAll.pipe(under(boxes.retired))
      }))

    test("never overwrites a value changed between its read and its write", () =>
      Effect.gen(function*() {
        yield* seed
        const store = yield* SealedValues
        const repo = yield* TenantRepository
        const entries = yield* store.page(null, 1000)
        const target = entries.find((e) => e.owner._tag === "AppSecret")!
        const owner = target.owner as Extract<SealedEntry["owner"], { _tag: "AppSecret" }>
        // An operator rotates this secret while the re-seal runs: between its read and its write.
        const rotation = Effect.gen(function*() {
          const box = yield* SecretBox
          yield* repo.replaceSecret(owner.tenantId, owner.network, yield* box.seal(text("rotated meanwhile"), sealContextOf(owner)))
        }).pipe(Effect.provide(boxes.rotated), Effect.orDie)
        let raced = false
        const racing = SealedValues.of({
          ...store,
          replace: (position, expected, next) =>
            !raced && position.column === target.position.column && position.rowId === target.position.rowId
              ? Effect.zipRight(Effect.zipRight(Effect.sync(() => raced = true), rotation), store.replace(position, expected, next))
              : store.replace(position, expected, next)
        })
        const report = yield* Effect.flatMap(Resealer, (r) => r.reseal({ batchSize: 5 })).pipe(
          under(boxes.rotated),
          Effect.provideService(SealedValues, racing)
        )
        expect([report.resealed, report.changed]).toEqual([total - 1, 1])
        const opened = yield* openAll.pipe(under(boxes.retired))
        expect(opened.find((o) => o.position.column === target.position.column && o.position.rowId === target.position.rowId)!.text).toBe("rotated meanwhile")
      }))

    test("counts a value no key at hand opens and leaves it as it is", () =>
      Effect.gen(function*() {
        yield* seed
        const fixtures = yield* StorageFixtures
        const store = yield* SealedValues
        const repo = yield* TenantRepository
        const scope = { tenantId: (yield* repo.find("reseal-b")).id, network: "nile" as const }
        const lost: Sealed = { keyId: "0123456789abcdef", blob: new Uint8Array(40).fill(7) }
        yield* fixtures.wallet(scope, { address: "TLostKey", key: localKey(lost) })
        const report = yield* Effect.flatMap(Resealer, (r) => r.reseal({ batchSize: 50 })).pipe(under(boxes.rotated))
        expect([report.resealed, report.unreadable]).toEqual([total, 1])
        const status = yield* Effect.flatMap(Resealer, (r) => r.status).pipe(under(boxes.rotated))
        expect(status.underOtherKeys).toBe(1)
        expect((yield* store.countByKeyId).find((c) => c.keyId === lost.keyId)).toEqual({ keyId: lost.keyId, count: 1 })
      }))

    test("the key check: made at first start, opened by the same or a rotated keyring, refused to a stranger key", () =>
      Effect.gen(function*() {
        const store = yield* SealedValues
        const verify = Effect.flatMap(MasterKeyCheck, (c) => c.verify)
        const { current: a } = yield* keyIdsOf(boxes.old)
        const { current: c } = yield* keyIdsOf(boxes.stranger)
        expect(yield* verify.pipe(under(boxes.old))).toEqual({ keyCheck: "created", underOtherKeys: Option.none() })
        expect(yield* verify.pipe(under(boxes.old))).toEqual({ keyCheck: "opened", underOtherKeys: Option.none() })
        const refused = yield* verify.pipe(under(boxes.stranger), Effect.flip)
        expect(refused).toEqual(new MasterKeyMismatch({ currentKeyId: c, previousKeyIds: [], sealedUnder: [a] }))
        // Rotated: opens under the previous key, and counts what older keys still seal.
        expect(yield* verify.pipe(under(boxes.rotated))).toEqual({ keyCheck: "opened", underOtherKeys: Option.some(1) })
        expect(Option.map(yield* store.keyCheck, (s) => s.keyId)).toEqual(Option.some(a))
      }))

    test("on a store from before the key check, a key that opens none of its values is refused and not written down", () =>
      Effect.gen(function*() {
        yield* seed
        const store = yield* SealedValues
        // As if the values were stored before the check existed.
        const written: Array<Sealed> = []
        const withoutCheck = SealedValues.of({
          ...store,
          keyCheck: Effect.succeedNone,
          createKeyCheck: (sealed) => Effect.sync(() => (written.push(sealed), sealed)),
          page: (after, limit) =>
            Effect.map(store.page(after, limit + 1), (entries) => entries.filter((e) => e.owner._tag !== "KeyCheck").slice(0, limit))
        })
        const verify = Effect.flatMap(MasterKeyCheck, (c) => c.verify)
        const { current: a } = yield* keyIdsOf(boxes.old)
        const refused = yield* verify.pipe(under(boxes.stranger), Effect.provideService(SealedValues, withoutCheck), Effect.flip)
        expect(refused.sealedUnder).toEqual([a])
        expect(written).toEqual([])
        const accepted = yield* verify.pipe(under(boxes.old), Effect.provideService(SealedValues, withoutCheck))
        expect(accepted.keyCheck).toBe("created")
        expect(written.map((s) => s.keyId)).toEqual([a])
      }))
  })
