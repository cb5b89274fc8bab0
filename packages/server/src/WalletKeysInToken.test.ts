import type { Kernel } from "@collector/core"
import { call, CapturedLogs, expectError, expectOk, header, provisionTenant, ServerUrl, TestServerLive, tokenFor } from "@collector/http-server/testing"
import { Pkcs11Token, Pkcs11WalletKeys } from "@collector/pkcs11"
import { createTestToken, skipReason, softHsmInstalled } from "@collector/pkcs11/testing"
import { SqlClient } from "@effect/sql"
import { describe, expect, it, layer } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { randomUUID } from "node:crypto"

const token = softHsmInstalled ? createTestToken() : undefined

/** The ID the next wallet will be given: read, not drawn, from the wallets' sequence. */
const nextWalletId = Effect.flatMap(SqlClient.SqlClient, (sql) =>
  Effect.map(
    sql<{ next: string }>`SELECT (CASE WHEN is_called THEN last_value + 1 ELSE last_value END)::text AS next FROM wallets_id_seq`,
    ([row]) => row!.next
  ))

const storedKey = (walletId: string) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) =>
    sql<{ store: string; key_label: string | null; sealed_key: Buffer | null }>`SELECT store, key_label, sealed_key FROM wallet_keys WHERE wallet_id = ${walletId}`)

if (token === undefined) {
  describe("wallet creation with keys in a PKCS#11 token", () => {
    it.skip(skipReason, () => expect(softHsmInstalled).toBe(false))
  })
} else {
  const walletKeys = Pkcs11WalletKeys.layer().pipe(Layer.provide(Layer.orDie(Pkcs11Token.layer(token.settings))))
  layer(TestServerLive({}, { walletKeys }), { excludeTestServices: true })("wallet creation with keys in a PKCS#11 token", (it) => {
    it.effect("a key the token cannot make is a 503 with Retry-After, nothing stored; the same request then succeeds under the next ID", () =>
      Effect.gen(function*() {
        const url = yield* ServerUrl
        const tenant = yield* provisionTenant(["nile"])
        const bearer = yield* tokenFor(url, tenant.app)
        const create = (requestId: string) =>
          call(url, tenant.app, bearer, "POST", "/open/v1/wallets", JSON.stringify({ custom_id: "hsm-user", request_id: requestId }))
        // Another deployment sharing the token, with the same label prefix, already holds the key
        // the next wallet's ID would be labelled with.
        const taken = yield* nextWalletId
        yield* Effect.scoped(Effect.flatMap(Pkcs11Token.open(token.settings), (opened) =>
          Effect.orDie(Pkcs11WalletKeys.make(opened).generate(taken as Kernel.WalletId))))

        const requestId = randomUUID()
        const refused = yield* create(requestId)
        expectError(refused, 503, "SERVICE_UNAVAILABLE")
        expect(header(refused, "retry-after")).toBe("5")
        expect(refused.text).not.toContain("collector-wallet-")
        const logs = (yield* CapturedLogs).lines.join("\n")
        expect(logs).toContain(`already holds an object labelled collector-wallet-${taken}`)
        expect(yield* storedKey(taken)).toEqual([])

        // Not saved as the request's answer: the retry creates the wallet, under the next ID.
        const created = expectOk(yield* create(requestId))
        expect(created.id).toBe(String(BigInt(taken) + 1n))
        expect(yield* storedKey(created.id)).toEqual([{ store: "pkcs11", key_label: `collector-wallet-${created.id}`, sealed_key: null }])
      }))
  })
}
