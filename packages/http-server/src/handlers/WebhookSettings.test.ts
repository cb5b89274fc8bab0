import { expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { randomUUID } from "node:crypto"
import { expectError, expectOk } from "../testing/Assertions.js"
import { TestServerLive } from "../testing/TestServer.js"
import { type Client, expectInvalid, tenantClients } from "../testing/Wallets.js"

const webhook = "/open/v1/settings/webhook"
const hook = "https://hooks.example.com/hook"

const setWebhook = (client: Client, url: string, enabled: boolean, requestId: string = randomUUID()) =>
  client.post(webhook, { url, enabled, request_id: requestId })

/** URLs that break a rule of the contract: each a 400, enabled or not. */
const refused = [
  "http://hooks.example.com/hook",
  "https://hooks.example.com:8443/hook",
  "https://hooks.example.com:80/hook",
  "https://hooks.example.com:0443/hook",
  "https://user:pass@hooks.example.com/hook",
  "https://user@hooks.example.com/hook",
  "https://hooks.example.com/hook#fragment",
  "https://hooks.example.com/hook#",
  "https://internal.example.com/hook",
  "https://mixed.example.com/hook",
  "https://loopback.example.com/hook",
  "https://127.0.0.1/hook",
  "https://10.1.2.3/hook",
  "https://[::1]/hook",
  "https://[::ffff:127.0.0.1]/hook",
  "https://nowhere.example.com/hook",
  "ftp://hooks.example.com/hook",
  "hooks.example.com/hook",
  "https://",
  " https://hooks.example.com/hook",
  "https://hooks.example.com/ho ok"
]

layer(TestServerLive({ rateBurst: 1000, ratePerSecond: 1000 }), { excludeTestServices: true })("webhook configuration", (it) => {
  it.effect("empty and disabled by default; a public https URL is saved as given and read back", () =>
    Effect.gen(function*() {
      const { clients } = yield* tenantClients(["nile", "main"])
      const [client, main] = clients as [Client, Client]
      expect(expectOk(yield* client.get(webhook))).toEqual({ url: "", enabled: false })
      expect(expectOk(yield* setWebhook(client, hook, true))).toEqual({ url: hook, enabled: true })
      expect(expectOk(yield* client.get(webhook))).toEqual({ url: hook, enabled: true })
      for (const url of ["https://hooks.example.com:443/hook", "https://v6.example.com/cb?x=1", "https://HOOKS.example.com/", "https://93.184.216.34/hook"]) {
        expect(expectOk(yield* setWebhook(client, url, true)), url).toEqual({ url, enabled: true })
        expect(expectOk(yield* client.get(webhook))).toEqual({ url, enabled: true })
      }
      // A valid URL may be kept while disabled; disabled with no URL clears it.
      expect(expectOk(yield* setWebhook(client, hook, false))).toEqual({ url: hook, enabled: false })
      expect(expectOk(yield* client.get(webhook))).toEqual({ url: hook, enabled: false })
      expect(expectOk(yield* setWebhook(client, "", false))).toEqual({ url: "", enabled: false })
      expect(expectOk(yield* client.get(webhook))).toEqual({ url: "", enabled: false })
      // Per network.
      expectOk(yield* setWebhook(client, hook, true))
      expect(expectOk(yield* main.get(webhook))).toEqual({ url: "", enabled: false })
    }))

  it.effect("enabled needs a URL: exactly `webhook URL required when enabled`", () =>
    Effect.gen(function*() {
      const { client } = yield* tenantClients()
      expectOk(yield* setWebhook(client, hook, false))
      const res = yield* setWebhook(client, "", true)
      expectInvalid(res, "webhook URL required when enabled")
      expect(expectOk(yield* client.get(webhook))).toEqual({ url: hook, enabled: false })
    }))

  it.effect("every rule-breaking URL is 400 whether enabled or not, and nothing is saved", () =>
    Effect.gen(function*() {
      const { client } = yield* tenantClients()
      expectOk(yield* setWebhook(client, hook, true))
      for (const url of refused) {
        for (const enabled of [true, false]) {
          const res = yield* setWebhook(client, url, enabled)
          expectError(res, 400, "INVALID_ARGUMENT")
          expect(res.json.message, `${url} enabled=${enabled}`).not.toBe("internal error")
        }
      }
      expect(expectOk(yield* client.get(webhook))).toEqual({ url: hook, enabled: true })
    }))

  it.effect("a URL refused for a non-public address or another port names WEBHOOK_ALLOW_PRIVATE_TARGETS; one refused for http or user info does not", () =>
    Effect.gen(function*() {
      const { client } = yield* tenantClients()
      const hint = "(an operator can allow private targets and other ports with WEBHOOK_ALLOW_PRIVATE_TARGETS=true)"
      const named: ReadonlyArray<readonly [string, string]> = [
        ["https://127.0.0.1/hook", "webhook URL host 127.0.0.1 is not a public address"],
        ["https://[::1]/hook", "webhook URL host ::1 is not a public address"],
        ["https://loopback.example.com/hook", "webhook URL host loopback.example.com does not resolve to public addresses only"],
        ["https://internal.example.com/hook", "webhook URL host internal.example.com does not resolve to public addresses only"],
        ["https://hooks.example.com:8443/hook", "webhook URL must use port 443"]
      ]
      for (const [url, reason] of named) expectInvalid(yield* setWebhook(client, url, true), `${reason} ${hint}`)
      const unnamed: ReadonlyArray<readonly [string, string]> = [
        ["http://hooks.example.com/hook", "webhook URL must use https"],
        ["http://127.0.0.1:8080/hook", "webhook URL must use https"],
        ["https://user@hooks.example.com/hook", "webhook URL must not contain user credentials"],
        ["https://hooks.example.com:0443/hook", "webhook URL must use port 443"]
      ]
      for (const [url, reason] of unnamed) expectInvalid(yield* setWebhook(client, url, true), reason)
    }))

  it.effect("missing, extra and mistyped fields and bad request_ids are 400", () =>
    Effect.gen(function*() {
      const { client } = yield* tenantClients()
      const invalid: ReadonlyArray<unknown> = [
        { url: hook, request_id: randomUUID() },
        { enabled: true, request_id: randomUUID() },
        { url: hook, enabled: true },
        { url: hook, enabled: true, request_id: randomUUID(), secret: "x" },
        { url: hook, enabled: "true", request_id: randomUUID() },
        { url: hook, enabled: 1, request_id: randomUUID() },
        { url: null, enabled: false, request_id: randomUUID() },
        { url: 1, enabled: false, request_id: randomUUID() },
        { url: hook, enabled: true, request_id: "a".repeat(15) },
        { url: hook, enabled: true, request_id: "a".repeat(129) },
        "[]"
      ]
      for (const body of invalid) expectInvalid(yield* client.post(webhook, body))
      expect(expectOk(yield* client.get(webhook))).toEqual({ url: "", enabled: false })
    }))

  it.effect("a replay returns the saved result byte for byte; other parameters with the same request_id are a 409", () =>
    Effect.gen(function*() {
      const { client } = yield* tenantClients()
      const requestId = randomUUID()
      const first = yield* setWebhook(client, hook, true, requestId)
      expect(expectOk(first)).toEqual({ url: hook, enabled: true })
      expectOk(yield* setWebhook(client, "", false))
      expect((yield* setWebhook(client, hook, true, requestId)).text).toBe(first.text)
      expect((yield* client.post(webhook, { request_id: requestId, enabled: true, url: hook })).text).toBe(first.text)
      expect(expectOk(yield* client.get(webhook))).toEqual({ url: "", enabled: false })
      for (const [url, enabled] of [[hook, false], ["https://v6.example.com/hook", true]] as const) {
        const conflict = yield* setWebhook(client, url, enabled, requestId)
        expectError(conflict, 409, "IDEMPOTENCY_CONFLICT")
        expect(conflict.json.message).toMatch(/^conflict: idempotency key already used with another request/)
      }
      expect(expectOk(yield* client.get(webhook))).toEqual({ url: "", enabled: false })
    }))

  it.effect("a refused URL saves nothing: its request_id can carry a valid body afterwards", () =>
    Effect.gen(function*() {
      const { client } = yield* tenantClients()
      for (const [badUrl, enabled] of [["https://internal.example.com/hook", true], ["http://hooks.example.com/hook", false], ["", true]] as const) {
        const requestId = randomUUID()
        expectInvalid(yield* setWebhook(client, badUrl, enabled, requestId))
        expectInvalid(yield* setWebhook(client, badUrl, enabled, requestId))
        const accepted = yield* setWebhook(client, hook, enabled, requestId)
        expect(expectOk(accepted)).toEqual({ url: hook, enabled })
        // From now on the key belongs to the accepted body.
        expect((yield* setWebhook(client, hook, enabled, requestId)).text).toBe(accepted.text)
        expectError(yield* setWebhook(client, badUrl, enabled, requestId), 409, "IDEMPOTENCY_CONFLICT")
      }
    }))
})
