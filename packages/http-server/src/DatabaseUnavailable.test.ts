import { SqlError } from "@effect/sql/SqlError"
import { describe, expect, it } from "@effect/vitest"
import { isDatabaseUnavailable } from "./DatabaseUnavailable.js"

// What a failover looks like to a request: each is a 503 with Retry-After, never a 500.
describe("isDatabaseUnavailable during a PostgreSQL failover", () => {
  it.each([
    ["the old primary's connection dropped", { message: "Connection terminated unexpectedly" }],
    ["a statement on a connection that broke earlier in its transaction", { message: "Client has encountered a connection error and is not queryable" }],
    ["the old primary shut down", { code: "57P01", message: "terminating connection due to administrator command" }],
    ["no server of the list takes writes yet", { code: "08001", message: "no server of DATABASE_URL is read-write" }],
    ["a write reached a server demoted or fenced read-only", { code: "25006", message: "cannot execute INSERT in a read-only transaction" }]
  ])("%s", (_, cause) => {
    expect(isDatabaseUnavailable(new SqlError({ cause, message: "Failed to execute statement" }))).toBe(true)
  })

  it("not a bug in a statement", () => {
    expect(isDatabaseUnavailable(new SqlError({ cause: { code: "42601", message: "syntax error" }, message: "Failed to execute statement" }))).toBe(false)
  })
})
