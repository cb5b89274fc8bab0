import { SqlError } from "@effect/sql/SqlError"
import { describe, expect, it } from "@effect/vitest"
import { isTransientConnectFailure } from "./DatabaseStartWait.js"

const failedWith = (cause: object) => new SqlError({ cause, message: "PgClient: Failed to connect" })

describe("isTransientConnectFailure", () => {
  it.each([
    ["refused (server down)", { code: "ECONNREFUSED", message: "connect ECONNREFUSED 127.0.0.1:5432" }],
    ["host not resolvable yet", { code: "ENOTFOUND", message: "getaddrinfo ENOTFOUND db" }],
    ["crash recovery", { code: "57P03", message: "the database system is not yet accepting connections" }],
    ["shutting down", { code: "57P01", message: "terminating connection due to administrator command" }],
    ["too many connections", { code: "53300", message: "sorry, too many clients already" }],
    ["connect time-out", { message: "Connection timed out" }],
    ["connection ended early", { message: "Connection terminated unexpectedly" }]
  ])("waits for: %s", (_, cause) => {
    expect(isTransientConnectFailure(failedWith(cause))).toBe(true)
  })

  it.each([
    ["a refused password", { code: "28P01", message: "password authentication failed for user \"x\"" }],
    ["a database that does not exist", { code: "3D000", message: "database \"nope\" does not exist" }],
    ["a malformed URL", { message: "Invalid URL" }]
  ])("does not wait for: %s", (_, cause) => {
    expect(isTransientConnectFailure(failedWith(cause))).toBe(false)
  })

  it("does not wait for an error that is not the client's", () => {
    expect(isTransientConnectFailure(new Error("ECONNREFUSED"))).toBe(false)
  })
})
