import { describe, expect, it } from "@effect/vitest"
import * as RowRule from "./RowRule.js"

const now = new Date("2026-11-29T08:00:00.000Z")
const at = (ms: number) => new Date(now.getTime() + ms)

interface Row {
  readonly status: string
  readonly due: Date | null
  readonly lastRunAt: Date | null
  readonly minutes: number
}
const row = (over: Partial<Row>): Row => ({ status: "pending", due: now, lastRunAt: null, minutes: 5, ...over })
const f = RowRule.field<Row>
const nowParam = RowRule.param<{ readonly now: Date }>("now")

describe("RowRule.holds", () => {
  // Expected outcomes written out by hand, SQL's WHERE semantics: a comparison with null rejects the row.
  it("compares times at the boundary, and rejects a null operand", () => {
    const dueBy = RowRule.compare(f("due"), "<=", nowParam)
    const dueBefore = RowRule.compare(f("due"), "<", nowParam)
    const table: ReadonlyArray<readonly [Date | null, boolean, boolean]> = [
      [at(-1), true, true],
      [at(0), true, false],
      [at(1), false, false],
      [null, false, false]
    ]
    for (const [due, byExpected, beforeExpected] of table) {
      expect(RowRule.holds(dueBy, row({ due }), { now }), `<= ${due?.toISOString()}`).toBe(byExpected)
      expect(RowRule.holds(dueBefore, row({ due }), { now }), `< ${due?.toISOString()}`).toBe(beforeExpected)
    }
  })

  it("adds whole minutes to a time, null when the time is null", () => {
    const intervalPassed = RowRule.compare(RowRule.plusMinutes(f("lastRunAt"), f("minutes")), "<=", nowParam)
    expect(RowRule.holds(intervalPassed, row({ lastRunAt: at(-5 * 60_000), minutes: 5 }), { now })).toBe(true)
    expect(RowRule.holds(intervalPassed, row({ lastRunAt: at(-5 * 60_000 + 1), minutes: 5 }), { now })).toBe(false)
    expect(RowRule.holds(intervalPassed, row({ lastRunAt: at(-1), minutes: 0 }), { now })).toBe(true)
    expect(RowRule.holds(intervalPassed, row({ lastRunAt: null }), { now })).toBe(false)
  })

  it("reads one of and none of literals, a null value being neither", () => {
    const open = RowRule.oneOf(f("status"), ["pending", "delivering"])
    const unfinished = RowRule.noneOf(f("status"), ["succeeded", "failed"])
    expect([row({ status: "pending" }), row({ status: "delivered" })].map((r) => RowRule.holds(open, r, {}))).toEqual([true, false])
    expect([row({ status: "failed" }), row({ status: "ready" })].map((r) => RowRule.holds(unfinished, r, {}))).toEqual([false, true])
    const nullStatus = { ...row({}), status: null } as unknown as Row
    expect([RowRule.holds(open, nullStatus, {}), RowRule.holds(unfinished, nullStatus, {})]).toEqual([false, false])
  })

  it("combines with all and any; the lease rule takes a row with no lease or one run out by now", () => {
    const unclaimed = RowRule.unclaimedAt(f("due"), nowParam)
    expect([null, at(-1), at(0), at(1)].map((due) => RowRule.holds(unclaimed, row({ due }), { now }))).toEqual([true, true, true, false])
    expect(RowRule.holds(RowRule.all<Row, unknown>(), row({}), {})).toBe(true)
    expect(RowRule.holds(RowRule.any<Row, unknown>(), row({}), {})).toBe(false)
  })

  it("refuses to order strings, whose SQL collation orders differently", () => {
    expect(() => RowRule.holds(RowRule.compare(f("status"), "<", RowRule.literal("x")), row({}), {})).toThrow(/equality only/)
  })
})
