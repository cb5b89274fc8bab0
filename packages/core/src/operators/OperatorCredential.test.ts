import { describe, expect, it } from "vitest"
import { credentialUsable, type OperatorCredential } from "./OperatorCredential.js"

const at = (iso: string) => new Date(iso)
const token: OperatorCredential = { id: "1", kind: "token", tokenId: "1", createdAt: at("2030-01-01T00:00:00Z"), expiresAt: at("2030-02-01T00:00:00Z"), revokedAt: null }
const session: OperatorCredential = { ...token, id: "2", kind: "session", expiresAt: at("2030-01-01T12:00:00Z") }

describe("credentialUsable", () => {
  it.each([
    ["a token before its expiry", token, token, "2030-01-31T23:59:59Z", true],
    ["a token at its expiry", token, token, "2030-02-01T00:00:00Z", false],
    ["a revoked token", { ...token, revokedAt: at("2030-01-02T00:00:00Z") }, { ...token, revokedAt: at("2030-01-02T00:00:00Z") }, "2030-01-03T00:00:00Z", false],
    ["a session of a usable token", session, token, "2030-01-01T11:00:00Z", true],
    ["a session past its own expiry", session, token, "2030-01-01T12:00:00Z", false],
    ["a session whose token was revoked", session, { ...token, revokedAt: at("2030-01-01T01:00:00Z") }, "2030-01-01T11:00:00Z", false],
    ["a session whose token is gone", session, undefined, "2030-01-01T11:00:00Z", false],
    ["an ended session", { ...session, revokedAt: at("2030-01-01T01:00:00Z") }, token, "2030-01-01T11:00:00Z", false]
  ] as const)("%s", (_, credential, of, now, usable) => {
    expect(credentialUsable(credential, of, at(now))).toBe(usable)
  })
})
