import { describe, expect, it } from "@effect/vitest"
import { ConfigProvider, Effect, Either, Option, Redacted } from "effect"
import { databaseConfig } from "./DatabaseConfig.js"
import { describeDatabase } from "./DatabaseDescription.js"
import { isMultiHostUrl, parseMultiHostUrl } from "./MultiHostUrl.js"

const parsed = (text: string) => Either.getOrThrow(parseMultiHostUrl(text))
const refusal = (text: string) => Either.match(parseMultiHostUrl(text), { onLeft: (error) => error.message, onRight: () => "accepted" })

const settingsFrom = (url: string) =>
  Effect.runSyncExit(Effect.withConfigProvider(databaseConfig, ConfigProvider.fromMap(new Map([["DATABASE_URL", url]]))))

describe("a multi-host DATABASE_URL", () => {
  it("reads the host list, credentials, database and target_session_attrs", () => {
    const url = parsed("postgres://collector:p%40ss@db1:5432,db2:5433,[::1]/collector?target_session_attrs=primary&sslmode=verify-full&connect_timeout=3")
    expect(url.hosts).toEqual([{ host: "db1", port: 5432 }, { host: "db2", port: 5433 }, { host: "::1", port: 5432 }])
    expect(url.user).toBe("collector")
    expect(url.password && Redacted.value(url.password)).toBe("p@ss")
    expect(url.database).toBe("collector")
    expect(url.targetSessionAttrs).toBe("primary")
    expect(url.tls).toBe("verify-full")
    expect(url.connectTimeoutSeconds).toBe(3)
  })

  it("writes to a read-write server unless told otherwise, without TLS unless sslmode asks", () => {
    const url = parsed("postgresql://u:p@db1,db2/collector")
    expect(url.targetSessionAttrs).toBe("read-write")
    expect(url.tls).toBe("disable")
    expect(parsed("postgres://u:p@db1,db2/c?target_session_attrs=any").targetSessionAttrs).toBe("any")
  })

  it.each([
    ["an unknown session attribute", "postgres://u:secret@db1,db2/c?target_session_attrs=standby", /target_session_attrs=standby/],
    ["a port that is no port", "postgres://u:secret@db1:99999,db2/c", /invalid host "db1:99999"/],
    ["an empty host", "postgres://u:secret@db1,,db2/c", /invalid host ""/],
    ["a parameter node-postgres would not apply", "postgres://u:secret@db1,db2/c?options=-c%20x%3D1", /parameter "options"/],
    ["an unknown sslmode", "postgres://u:secret@db1,db2/c?sslmode=maybe", /sslmode=maybe/]
  ])("refuses %s, naming DATABASE_URL and never the password", (_, text, reason) => {
    const message = refusal(text)
    expect(message).toMatch(/^DATABASE_URL /)
    expect(message).toMatch(reason)
    expect(message).not.toContain("secret")
  })

  it("is told apart from a single-host URL, which stays node-postgres' own", () => {
    expect(isMultiHostUrl("postgres://u:p@db1:5432,db2:5432/c")).toBe(true)
    expect(isMultiHostUrl("postgres://u:p@db1:5432/c?sslmode=require")).toBe(false)
    expect(isMultiHostUrl("postgres://u:p,q@db1:5432/c")).toBe(false)
  })

  it("passes the configuration check and is described without credentials", () => {
    const exit = settingsFrom("postgres://u:secret@db1:5432,db2:5433/collector?target_session_attrs=read-write")
    expect(exit._tag).toBe("Success")
    if (exit._tag !== "Success") return
    expect(Option.isSome(exit.value.url)).toBe(true)
    expect(describeDatabase(exit.value)).toBe("PostgreSQL at db1:5432,db2:5433/collector (read-write)")
  })

  it("fails the configuration check with the reason and without the password", () => {
    const exit = settingsFrom("postgres://u:secret@db1:5432,db2:5433/collector?target_session_attrs=standby")
    expect(exit._tag).toBe("Failure")
    const text = String(exit)
    expect(text).toMatch(/DATABASE_URL has target_session_attrs=standby/)
    expect(text).not.toContain("secret")
    // One host: as before.
    expect(String(settingsFrom("mysql://u:secret@db1/c"))).toMatch(/DATABASE_URL must be a PostgreSQL URL/)
    expect(settingsFrom("postgres://u:secret@db1:5432/collector?sslmode=require")._tag).toBe("Success")
  })
})
