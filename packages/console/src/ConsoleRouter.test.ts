import { Engine, Fees, Kernel, Memory, Notifications, Operators, Settings, Sweeps } from "@collector/core"
import { MemoryStorageFixtures, StorageFixtures, sweepDraftFor, TestWebhookTargets } from "@collector/core/testing"
import { HttpServer } from "@effect/platform"
import { NodeHttpServer } from "@effect/platform-node"
import { expect, layer } from "@effect/vitest"
import { Clock, Effect, Layer, Option } from "effect"
import { createServer } from "node:http"
import { router } from "./ConsoleRouter.js"
import { OperatorAccess } from "./OperatorAccess.js"

const Storage = MemoryStorageFixtures.layer.pipe(Layer.provideMerge(Memory.MemoryStorage))
const Services = Layer.mergeAll(OperatorAccess.layer, Notifications.Notifications.layer, Settings.SettingsService.layer, Engine.Readiness.storage()).pipe(
  Layer.provideMerge(Layer.mergeAll(Storage, Kernel.SeededEntropy.layer("console"), TestWebhookTargets.layer({})))
)
const Served = HttpServer.serve(router({ secureCookie: false })).pipe(
  Layer.provideMerge(NodeHttpServer.layer(createServer, { port: 0, host: "127.0.0.1" })),
  Layer.provideMerge(Services)
)

const base = Effect.map(HttpServer.HttpServer, (server) => `http://127.0.0.1:${(server.address as HttpServer.TcpAddress).port}`)
const call = (path: string, init: RequestInit = {}) =>
  Effect.flatMap(base, (url) => Effect.promise(() => fetch(`${url}${path}`, { redirect: "manual", ...init })))
const text = (response: Response) => Effect.promise(() => response.text())
const postForm = (path: string, fields: Record<string, string>, headers: Record<string, string> = {}) =>
  call(path, { method: "POST", body: new URLSearchParams(fields).toString(), headers: { "content-type": "application/x-www-form-urlencoded", ...headers } })

const login = (token: string) =>
  Effect.gen(function*() {
    const response = yield* postForm("/console/login", { token })
    const cookie = (response.headers.get("set-cookie") ?? "").split(";")[0]!
    return { response, cookie }
  })
const csrfOf = (page: string) => /name="csrf" value="([^"]+)"/.exec(page)?.[1] ?? ""

layer(Served)("console over the memory store", (it) => {
  it.effect("without a usable credential a page reveals nothing: a browser goes to log in, anything else gets 401", () =>
    Effect.gen(function*() {
      const fixtures = yield* StorageFixtures
      yield* fixtures.scope("nile")
      const anonymous = yield* call("/console/tenants")
      expect(anonymous.status).toBe(303)
      expect(anonymous.headers.get("location")).toBe("/console/login")
      expect(yield* text(anonymous)).toBe("")
      const badBearer = yield* call("/console/tenants", { headers: { authorization: "Bearer opt_wrong" } })
      expect(badBearer.status).toBe(401)
      expect(yield* text(badBearer)).not.toContain("Tenants")
      const forgedCookie = yield* call("/console/tenants", { headers: { cookie: "collector_console=ops_forged" } })
      expect(forgedCookie.status).toBe(303)
      const post = yield* postForm("/console/actions", { action: "pause_automation", tenant: "1", network: "nile" })
      expect(post.status).toBe(401)
      const refused = yield* login("opt_not_a_token")
      expect(refused.response.status).toBe(401)
      expect(refused.cookie).toBe("")
    }))

  it.effect("a token logs in with a strict, HttpOnly session cookie; a bearer token gets the same pages; escaping holds", () =>
    Effect.gen(function*() {
      const { token } = yield* (yield* OperatorAccess).createToken()
      const fixtures = yield* StorageFixtures
      yield* fixtures.scope("main")
      const { response, cookie } = yield* login(token)
      expect(response.status).toBe(303)
      expect(response.headers.get("location")).toBe("/console")
      const setCookie = response.headers.get("set-cookie") ?? ""
      expect(setCookie).toMatch(/HttpOnly/i)
      expect(setCookie).toMatch(/SameSite=Strict/i)
      expect(setCookie).toMatch(/Path=\/console/)
      expect(setCookie).not.toContain(token)
      const viaCookie = yield* call("/console", { headers: { cookie } })
      expect(viaCookie.status).toBe(200)
      expect(viaCookie.headers.get("content-security-policy")).toContain("default-src 'none'")
      expect(yield* text(viaCookie)).toContain("<h1>Overview</h1>")
      const viaBearer = yield* call("/console/search?q=%3Cscript%3Ealert(1)%3C%2Fscript%3E", { headers: { authorization: `Bearer ${token}` } })
      const body = yield* text(viaBearer)
      expect(viaBearer.status).toBe(200)
      expect(body).toContain("&lt;script&gt;alert(1)&lt;/script&gt;")
      expect(body).not.toContain("<script>alert(1)")
    }))

  it.effect("an action needs the session's anti-CSRF token, goes through the settings service, is audited and idempotent", () =>
    Effect.gen(function*() {
      const access = yield* OperatorAccess
      const { credential, token } = yield* access.createToken()
      const scope = yield* (yield* StorageFixtures).scope("nile")
      const { cookie } = yield* login(token)
      const fields = { action: "resume_automation", tenant: scope.tenantId, network: "nile" }
      const confirm = yield* call(`/console/confirm?${new URLSearchParams(fields)}`, { headers: { cookie } })
      const csrf = csrfOf(yield* text(confirm))
      expect(csrf).not.toBe("")
      const audit = yield* Operators.OperatorAuditLog
      const before = (yield* audit.recent(1000)).length
      const forged = yield* postForm("/console/actions", { ...fields, csrf: "forged" }, { cookie })
      expect(forged.status).toBe(403)
      expect((yield* audit.recent(1000)).length).toBe(before)
      expect((yield* (yield* Settings.SettingsService).get(scope)).automation.enabled).toBe(false)
      const done = yield* postForm("/console/actions", { ...fields, csrf }, { cookie })
      expect(done.status).toBe(200)
      expect(yield* text(done)).toContain("done: automation resumed")
      expect((yield* (yield* Settings.SettingsService).get(scope)).automation.enabled).toBe(true)
      const again = yield* postForm("/console/actions", { ...fields, csrf }, { cookie })
      expect(yield* text(again)).toContain("unchanged: automation is on already")
      const entries = (yield* audit.recent(2)).map((e) => [e.tokenId, e.action, e.target, e.outcome])
      expect(entries).toEqual([
        [credential.id, "resume_automation", `tenant ${scope.tenantId} nile`, "unchanged: automation is on already"],
        [credential.id, "resume_automation", `tenant ${scope.tenantId} nile`, "done: automation resumed"]
      ])
    }))

  it.effect("a sweep not yet signed is cancelled from its page, through the core, audited, and its event written; a second cancel changes nothing", () =>
    Effect.gen(function*() {
      const { credential, token } = yield* (yield* OperatorAccess).createToken()
      const fixtures = yield* StorageFixtures
      const scope = yield* fixtures.scope("nile")
      const wallet = yield* fixtures.wallet(scope)
      const repo = yield* Sweeps.SweepRepository
      const [task] = yield* repo.insert(scope, [sweepDraftFor(wallet)], new Date())
      const { cookie } = yield* login(token)
      const page = yield* text(yield* call("/console/sweeps", { headers: { cookie } }))
      const fields = { action: "cancel_sweep", tenant: scope.tenantId, network: "nile", sweep: task!.id }
      expect(page).toContain(`/console/confirm?${new URLSearchParams(fields).toString().replaceAll("&", "&amp;")}`)
      const confirm = yield* text(yield* call(`/console/confirm?${new URLSearchParams(fields)}`, { headers: { cookie } }))
      expect(confirm).toContain(`Cancel sweep ${task!.id} of tenant ${scope.tenantId} on nile`)
      // The confirmation's form carries every field of the action.
      expect(confirm).toContain(`<input type="hidden" name="sweep" value="${task!.id}">`)
      const done = yield* postForm("/console/actions", { ...fields, csrf: csrfOf(confirm) }, { cookie })
      expect(yield* text(done)).toContain("done: cancelled")
      const view = Option.getOrThrow(yield* repo.find(scope, task!.id))
      expect(view.task).toMatchObject({ status: "cancelled", reason: `cancelled by the operator (console token ${credential.id})` })
      expect(view.webhook).toMatchObject({ eventType: "sweep.cancelled" })
      const again = yield* postForm("/console/actions", { ...fields, csrf: csrfOf(confirm) }, { cookie })
      expect(yield* text(again)).toContain("unchanged: the sweep is cancelled already")
      const entries = (yield* (yield* Operators.OperatorAuditLog).recent(2)).map((e) => [e.action, e.target, e.outcome])
      expect(entries).toEqual([
        ["cancel_sweep", `sweep ${task!.id} (tenant ${scope.tenantId} nile)`, "unchanged: the sweep is cancelled already"],
        ["cancel_sweep", `sweep ${task!.id} (tenant ${scope.tenantId} nile)`, "done: cancelled: the tenant is told by a sweep.cancelled event"]
      ])
    }))

  it.effect("the overview shows the day's sweep fees per network from the fee ledger: paid to the network and providers, and saved", () =>
    Effect.gen(function*() {
      const { token } = yield* (yield* OperatorAccess).createToken()
      const scope = yield* (yield* StorageFixtures).scope("nile")
      const ledger = yield* Fees.FeeLedger
      // The page reads the day back from the service's clock (the test clock here).
      const nowMillis = yield* Clock.currentTimeMillis
      const hourAgo = new Date(nowMillis - 3_600_000)
      const entry = (taskId: string, over: Partial<Fees.FeeEntry>): Fees.FeeEntry => ({
        taskId: taskId as Sweeps.SweepTaskId,
        tenantId: scope.tenantId,
        network: "nile",
        walletId: "1" as Kernel.WalletId,
        txid: taskId.padStart(64, "c"),
        blockNumber: 10n,
        blockTime: hourAgo,
        energy: { own: 0n, delegated: 0n, rented: 0n, burned: 0n },
        networkEnergyFee: 0n,
        networkBandwidthFee: 0n,
        providerEnergyCost: 0n,
        providerActivationCost: 0n,
        lendingFee: 0n,
        energyPrice: 100n,
        burnEquivalent: 6_428_500n,
        saving: 0n,
        bookedAt: hourAgo,
        ...over
      })
      // One sweep burned 64,285 energy (6.4285 TRX) and 345 bandwidth points; one rented it at 90 SUN (5.78565 TRX), saving 0.64285.
      yield* ledger.record(entry("770001", { energy: { own: 0n, delegated: 0n, rented: 0n, burned: 64_285n }, networkEnergyFee: 6_428_500n, networkBandwidthFee: 345_000n }))
      yield* ledger.record(entry("770002", { energy: { own: 0n, delegated: 0n, rented: 64_285n, burned: 0n }, providerEnergyCost: 5_785_650n, saving: 642_850n }))
      // One was lent 64,285 energy from the own stake, whose delegation and reclaim burned 0.537 TRX: saved 5.8915.
      yield* ledger.record(entry("770004", { energy: { own: 0n, delegated: 64_285n, rented: 0n, burned: 0n }, lendingFee: 537_000n, saving: 5_891_500n }))
      // Two days old: not the last day's.
      yield* ledger.record(entry("770003", { blockTime: new Date(nowMillis - 2 * 86_400_000), networkEnergyFee: 9_000_000n }))
      const page = yield* text(yield* call("/console", { headers: { authorization: `Bearer ${token}` } }))
      // Saved 0.64285 + 5.8915 = 6.53435 of 3 × 6.4285 = 19.2855 burned: 33.88 %.
      expect(page).toContain("3 sweeps · paid 13.09615 TRX (network 6.7735 TRX, providers 5.78565 TRX, lending from the own stake 0.537 TRX) · saved 6.53435 TRX (33.88% of burning)")
    }))

  it.effect("revoking the token ends its sessions at once", () =>
    Effect.gen(function*() {
      const access = yield* OperatorAccess
      const { credential, token } = yield* access.createToken()
      const { cookie } = yield* login(token)
      expect((yield* call("/console/sweeps", { headers: { cookie } })).status).toBe(200)
      yield* access.revokeToken(credential.id)
      expect((yield* call("/console/sweeps", { headers: { cookie } })).status).toBe(303)
      expect((yield* call("/console/sweeps", { headers: { authorization: `Bearer ${token}` } })).status).toBe(401)
    }))
})
