import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { createHash } from "node:crypto"
import { query, withDatabase } from "./testing/CliHarness.js"

describe("operator token CLI", () => {
  it.scoped("create prints the token once, stores only its SHA-256; list and revoke by ID", () =>
    Effect.gen(function*() {
      const { cli, url } = yield* withDatabase
      const before = Date.now()
      const created = yield* cli("operator", "token", "create", "--ttl", "2", "--json")
      expect(created.code, created.stderr).toBe(0)
      const out = JSON.parse(created.stdout)
      expect(Object.keys(out)).toEqual(["token", "id", "expires_at"])
      expect(out.token).toMatch(/^opt_[A-Za-z0-9_-]{43}$/)
      const expires = Date.parse(out.expires_at)
      expect(expires).toBeGreaterThanOrEqual(before + 2 * 86_400_000)
      expect(expires).toBeLessThan(Date.now() + 2 * 86_400_000)
      const rows = yield* query(url, "SELECT id::text, encode(secret_hash, 'hex') AS h FROM operator_credentials")
      expect(rows).toEqual([{ id: out.id, h: createHash("sha256").update(out.token).digest("hex") }])
      const listed = JSON.parse((yield* cli("operator", "token", "list", "--json")).stdout)
      expect(listed).toEqual([{ id: out.id, created_at: expect.any(String), expires_at: out.expires_at, revoked_at: null }])
      expect(JSON.stringify(listed)).not.toContain(out.token)
      expect((yield* cli("operator", "token", "revoke", out.id)).code).toBe(0)
      expect(JSON.parse((yield* cli("operator", "token", "list", "--json")).stdout)[0].revoked_at).not.toBeNull()
      const unknown = yield* cli("operator", "token", "revoke", "999999")
      expect(unknown.code).toBe(1)
      expect(unknown.stderr).toContain("no operator token 999999")
      const badTtl = yield* cli("operator", "token", "create", "--ttl", "0")
      expect(badTtl.code).toBe(2)
      expect(badTtl.stderr).toContain("--ttl must be a whole number of days")
    }), { timeout: 120_000 })
})
