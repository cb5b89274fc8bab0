import { expect, layer } from "@effect/vitest"
import { Effect, Either, type Layer, Option } from "effect"
import { AccessTokenRepository } from "./AccessTokenRepository.js"
import type { AppId, TenantId } from "../kernel/Ids.js"
import { compareIds, isCanonicalPositiveInt64 } from "../kernel/Int64Id.js"
import type { Network } from "../kernel/Network.js"
import type { Sealed } from "../secrets/SecretBox.js"
import type { TenantWithApps } from "./Tenant.js"
import { TenantHasNoApp, TenantNameTaken, TenantNotFound } from "./TenantErrors.js"
import { type NewAppCredential, TenantRepository } from "./TenantRepository.js"
import { dies } from "../testing/Defects.js"

const sealed = (keyId: string, byte: number): Sealed => ({ keyId, blob: new Uint8Array([byte, byte + 1, byte + 2]) })
/** Sealed values compared by content (PostgreSQL answers a Buffer, memory a Uint8Array). */
const plain = (value: Sealed) => ({ keyId: value.keyId, blob: Array.from(value.blob) })

const credential = (network: Network, n: number): NewAppCredential => ({
  network,
  secret: sealed(`secret-${n}`, n),
  webhookKey: sealed(`hook-${n}`, n + 100),
  confirmationRule: n % 2 === 0 ? "block_6" : "solidified"
})

const appOn = (tenant: TenantWithApps, network: Network) => tenant.apps.find((app) => app.network === network)!.appId
const tokenHash = (n: number) => new Uint8Array(32).fill(n)
const tokenExpiry = new Date("2031-01-01T00:00:00Z")

/**
 * What every TenantRepository must do, run against each implementation with the storage it is
 * given (with its AccessTokenRepository: rotating a secret revokes tokens). Tenant names are
 * unique per test, so the tests share one store.
 */
export const tenantRepositoryContract = <E>(name: string, storage: Layer.Layer<TenantRepository | AccessTokenRepository, E>) =>
  layer(storage)(`TenantRepository contract (${name})`, (it) => {
    it.effect("creates a tenant with one app per network, apps ordered by network; finds it by ID and by name; lists tenants by ID", () =>
      Effect.gen(function*() {
        const repo = yield* TenantRepository
        const acme = yield* repo.create("contract-acme", [credential("nile", 1), credential("main", 2)])
        expect({ ...acme, createdAt: undefined, apps: acme.apps.map((a) => [a.network, a.confirmationRule]) }).toEqual({
          id: acme.id,
          name: "contract-acme",
          status: "active",
          expiresAt: null,
          createdAt: undefined,
          apps: [["main", "block_6"], ["nile", "solidified"]]
        })
        expect(acme.createdAt).toBeInstanceOf(Date)
        const ids = [acme.id, ...acme.apps.map((a) => a.appId)]
        expect(ids.every(isCanonicalPositiveInt64)).toBe(true)
        expect(new Set(acme.apps.map((a) => a.appId)).size).toBe(2)
        expect(yield* repo.find(acme.id)).toEqual(acme)
        expect(yield* repo.find("contract-acme")).toEqual(acme)

        const beta = yield* repo.create("contract-beta", [])
        expect(beta.apps).toEqual([])
        const listed = yield* repo.list
        expect(listed.filter((t) => t.id === acme.id || t.id === beta.id)).toEqual([acme, beta])
        expect(listed.map((t) => t.id)).toEqual(listed.map((t) => t.id).sort(compareIds))
      }))

    it.effect("creates a tenant under an ID drawn beforehand; IDs drawn or generated never repeat", () =>
      Effect.gen(function*() {
        const repo = yield* TenantRepository
        const first = yield* repo.reserveTenantId
        const second = yield* repo.reserveTenantId
        expect(isCanonicalPositiveInt64(first) && isCanonicalPositiveInt64(second)).toBe(true)
        expect(first).not.toBe(second)
        const reserved = yield* repo.create("contract-reserved", [credential("nile", 17)], second)
        expect(reserved.id).toBe(second)
        expect((yield* repo.credential(appOn(reserved, "nile"))).pipe(Option.map((c) => c.tenantId))).toEqual(Option.some(second))
        const generated = yield* repo.create("contract-generated", [])
        expect([first, second]).not.toContain(generated.id)
      }))

    it.effect("the credential of an app: its sealed secret and webhook key, rule and tenant; none for an unknown app", () =>
      Effect.gen(function*() {
        const repo = yield* TenantRepository
        const tenant = yield* repo.create("contract-credential", [credential("nile", 3), credential("main", 4)])
        const found = Option.getOrThrow(yield* repo.credential(appOn(tenant, "main")))
        expect({ ...found, secret: plain(found.secret), webhookKey: plain(found.webhookKey) }).toEqual({
          appId: appOn(tenant, "main"),
          tenantId: tenant.id,
          network: "main",
          secret: plain(sealed("secret-4", 4)),
          webhookKey: plain(sealed("hook-4", 104)),
          confirmationRule: "block_6",
          tenantStatus: "active",
          tenantExpiresAt: null
        })
        expect(yield* repo.credential("9223372036854775807" as AppId)).toEqual(Option.none())
      }))

    it.effect("a name belongs to one live tenant: a disabled tenant keeps it, a deleted one frees it", () =>
      Effect.gen(function*() {
        const repo = yield* TenantRepository
        const first = yield* repo.create("contract-shared", [credential("nile", 5)])
        expect(yield* Effect.either(repo.create("contract-shared", []))).toEqual(Either.left(new TenantNameTaken({ name: "contract-shared" })))
        yield* repo.setStatus(first.id, "disabled")
        expect(yield* Effect.either(repo.create("contract-shared", []))).toEqual(Either.left(new TenantNameTaken({ name: "contract-shared" })))
        yield* repo.setStatus(first.id, "deleted")
        const second = yield* repo.create("contract-shared", [credential("nile", 6)])
        expect(second.id).not.toBe(first.id)
        // By name only the live tenant; by ID the deleted one too.
        expect(yield* repo.find("contract-shared")).toEqual(second)
        expect((yield* repo.find(first.id)).status).toBe("deleted")
        // Bringing the deleted tenant back would make two live tenants of one name.
        expect(yield* dies(repo.setStatus(first.id, "active"))).toBe(true)
        expect((yield* repo.find(first.id)).status).toBe("deleted")
        yield* repo.setStatus(second.id, "deleted")
        expect(yield* Effect.either(repo.find("contract-shared"))).toEqual(Either.left(new TenantNotFound({ reference: "contract-shared" })))
      }))

    it.effect("a reference is an ID first, then a name; text that is no int64 is only a name", () =>
      Effect.gen(function*() {
        const repo = yield* TenantRepository
        const target = yield* repo.create("contract-target", [])
        const namedLikeIt = yield* repo.create(target.id, [])
        expect(yield* repo.find(target.id)).toEqual(target)
        // No tenant has these IDs (the second is past the int64 range): they are names.
        const numeric = yield* repo.create("9000000000000000001", [])
        expect(yield* repo.find("9000000000000000001")).toEqual(numeric)
        const tooLarge = yield* repo.create("9999999999999999999", [])
        expect(yield* repo.find("9999999999999999999")).toEqual(tooLarge)
        expect(yield* repo.find(namedLikeIt.id)).toEqual(namedLikeIt)
        for (const reference of ["contract-nobody", "0", "01", ""]) {
          expect(yield* Effect.either(repo.find(reference))).toEqual(Either.left(new TenantNotFound({ reference })))
        }
      }))

    it.effect("status and expiry show in find and in the credential; changing an unknown tenant does nothing", () =>
      Effect.gen(function*() {
        const repo = yield* TenantRepository
        const tenant = yield* repo.create("contract-lifecycle", [credential("nile", 7)])
        const expiry = new Date("2030-06-01T12:00:00.250Z")
        yield* repo.setExpiry(tenant.id, expiry)
        yield* repo.setStatus(tenant.id, "disabled")
        expect(yield* repo.find(tenant.id)).toEqual({ ...tenant, status: "disabled", expiresAt: expiry })
        const stored = Option.getOrThrow(yield* repo.credential(appOn(tenant, "nile")))
        expect([stored.tenantStatus, stored.tenantExpiresAt]).toEqual(["disabled", expiry])
        yield* repo.setExpiry(tenant.id, null)
        yield* repo.setStatus(tenant.id, "active")
        expect(yield* repo.find(tenant.id)).toEqual(tenant)
        const before = yield* repo.list
        yield* repo.setStatus("9223372036854775807" as TenantId, "disabled")
        yield* repo.setExpiry("9223372036854775807" as TenantId, expiry)
        expect(yield* repo.list).toEqual(before)
      }))

    it.effect("replacing a secret stores it and revokes that app's access tokens only", () =>
      Effect.gen(function*() {
        const repo = yield* TenantRepository
        const tokens = yield* AccessTokenRepository
        const tenant = yield* repo.create("contract-rotate", [credential("nile", 8), credential("main", 9)])
        const other = yield* repo.create("contract-bystander", [credential("nile", 10)])
        yield* tokens.insert(tokenHash(1), appOn(tenant, "nile"), tokenExpiry)
        yield* tokens.insert(tokenHash(2), appOn(tenant, "nile"), tokenExpiry)
        yield* tokens.insert(tokenHash(3), appOn(tenant, "main"), tokenExpiry)
        yield* tokens.insert(tokenHash(4), appOn(other, "nile"), tokenExpiry)
        expect(yield* repo.replaceSecret(tenant.id, "nile", sealed("secret-new", 200))).toBe(appOn(tenant, "nile"))
        const stored = Option.getOrThrow(yield* repo.credential(appOn(tenant, "nile")))
        expect([plain(stored.secret), plain(stored.webhookKey)]).toEqual([plain(sealed("secret-new", 200)), plain(sealed("hook-8", 108))])
        const left = yield* Effect.forEach([1, 2, 3, 4], (n) => Effect.map(tokens.find(tokenHash(n)), Option.isSome))
        expect(left).toEqual([false, false, true, true])
        expect(yield* repo.find(tenant.id)).toEqual(tenant)
      }))

    it.effect("replacing the webhook key keeps the secret and the tokens; the confirmation rule shows everywhere", () =>
      Effect.gen(function*() {
        const repo = yield* TenantRepository
        const tokens = yield* AccessTokenRepository
        const tenant = yield* repo.create("contract-webhook-key", [credential("nile", 11), credential("main", 12)])
        yield* tokens.insert(tokenHash(5), appOn(tenant, "main"), tokenExpiry)
        expect(yield* repo.replaceWebhookKey(tenant.id, "main", sealed("hook-new", 201))).toBe(appOn(tenant, "main"))
        const stored = Option.getOrThrow(yield* repo.credential(appOn(tenant, "main")))
        expect([plain(stored.secret), plain(stored.webhookKey)]).toEqual([plain(sealed("secret-12", 12)), plain(sealed("hook-new", 201))])
        expect(Option.isSome(yield* tokens.find(tokenHash(5)))).toBe(true)

        yield* repo.setConfirmationRule(tenant.id, "nile", "block_1")
        expect((yield* repo.find(tenant.id)).apps.map((a) => [a.network, a.confirmationRule])).toEqual([["main", "block_6"], ["nile", "block_1"]])
        expect(Option.map(yield* repo.credential(appOn(tenant, "nile")), (c) => c.confirmationRule)).toEqual(Option.some("block_1"))
      }))

    it.effect("changing the app of a network the tenant has no app on is TenantHasNoApp, and changes nothing", () =>
      Effect.gen(function*() {
        const repo = yield* TenantRepository
        const tenant = yield* repo.create("contract-nile-only", [credential("nile", 13)])
        const unknown = "9223372036854775807" as TenantId
        for (const [id, network] of [[tenant.id, "main"], [unknown, "nile"]] as const) {
          const noApp = Either.left(new TenantHasNoApp({ reference: id, network }))
          expect(yield* Effect.either(repo.replaceSecret(id, network, sealed("x", 1)))).toEqual(noApp)
          expect(yield* Effect.either(repo.replaceWebhookKey(id, network, sealed("x", 1)))).toEqual(noApp)
          expect(yield* Effect.either(repo.setConfirmationRule(id, network, "block_12"))).toEqual(noApp)
        }
        expect(yield* repo.find(tenant.id)).toEqual(tenant)
      }))

    it.effect("a create that cannot store every app stores nothing", () =>
      Effect.gen(function*() {
        const repo = yield* TenantRepository
        expect(yield* dies(repo.create("contract-atomic", [credential("nile", 14), credential("nile", 15)]))).toBe(true)
        expect(yield* Effect.either(repo.find("contract-atomic"))).toEqual(Either.left(new TenantNotFound({ reference: "contract-atomic" })))
        expect((yield* repo.create("contract-atomic", [credential("nile", 16)])).name).toBe("contract-atomic")
      }))
  })
