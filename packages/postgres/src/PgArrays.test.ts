import { SqlClient } from "@effect/sql"
import { expect, it, layer } from "@effect/vitest"
import { Effect } from "effect"
import { integerArray, textArray } from "./PgArrays.js"
import { TestDatabaseLive } from "./testing/TestDatabase.js"

const awkward = [
  "",
  "plain",
  "a,b",
  "{braces}",
  "{",
  "}",
  "\"quoted\"",
  "\"",
  "back\\slash",
  "\\",
  "\\\"",
  "\\\\,\"{}\"",
  "NULL",
  "null",
  " spaced ",
  "tab\there",
  "new\nline",
  "'single'",
  "ünïcødé ✓",
  "T9yD14Nj9j7xAB4dbGeiX9h8unkKHxuWwb"
]

layer(TestDatabaseLive)("PgArrays", (it) => {
  it.effect("textArray: awkward strings arrive as written, in order", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const rows = yield* sql<{ v: string }>`
        SELECT v FROM unnest(${textArray(awkward)}::text[]) WITH ORDINALITY AS t (v, i) ORDER BY i`
      expect(rows.map((r) => r.v)).toEqual(awkward)
      const [one] = yield* sql<{ n: number }>`SELECT cardinality(${textArray(["a,b"])}::text[]) AS n`
      expect(one!.n).toBe(1)
      const [match] = yield* sql<{ hit: boolean }>`SELECT ${"{braces}"} = ANY(${textArray(awkward)}::text[]) AS hit`
      expect(match!.hit).toBe(true)
    }))

  it.effect("textArray and integerArray: an empty list is an empty array", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const [row] = yield* sql<{ t: number; n: number }>`
        SELECT cardinality(${textArray([])}::text[]) AS t, cardinality(${integerArray([])}::bigint[]) AS n`
      expect(row).toEqual({ t: 0, n: 0 })
    }))

  it.effect("integerArray: bigint extremes, numeric(78) amounts and digit strings round-trip", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const ids = [0n, 1n, -1n, 9223372036854775807n, -9223372036854775808n]
      const asBigint = yield* sql<{ v: string }>`
        SELECT v::text FROM unnest(${integerArray(ids)}::bigint[]) WITH ORDINALITY AS t (v, i) ORDER BY i`
      expect(asBigint.map((r) => BigInt(r.v))).toEqual(ids)
      const amounts = [10n ** 77n, 123456789n, 0n]
      const asNumeric = yield* sql<{ v: string }>`
        SELECT v::text FROM unnest(${integerArray(amounts)}::numeric[]) WITH ORDINALITY AS t (v, i) ORDER BY i`
      expect(asNumeric.map((r) => BigInt(r.v))).toEqual(amounts)
      const mixed = yield* sql<{ v: number }>`
        SELECT v FROM unnest(${integerArray([3, "42", 7n])}::int[]) WITH ORDINALITY AS t (v, i) ORDER BY i`
      expect(mixed.map((r) => r.v)).toEqual([3, 42, 7])
    }))
})

it("integerArray refuses what is not an integer (it would change the array's length or meaning)", () => {
  for (const bad of ["1,2", "1.5", "", " 1", "{1}", "NULL"]) {
    expect(() => integerArray([bad])).toThrow(TypeError)
  }
  expect(() => integerArray([1.5])).toThrow(TypeError)
  expect(integerArray([1n, "2", 3])).toBe("{1,2,3}")
})
