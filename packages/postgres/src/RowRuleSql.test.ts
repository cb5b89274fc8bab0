import { SqlClient } from "@effect/sql"
import { Balances, Idempotency, Kernel, Notifications, Scanning, Sweeps, Tenants } from "@collector/core"
import { expect, layer } from "@effect/vitest"
import { Effect, FastCheck as fc } from "effect"
import { type Columns, render } from "./RowRuleSql.js"
import { TestDatabaseLive } from "./testing/TestDatabase.js"

/**
 * The SQL a rule renders to keeps exactly the rows `RowRule.holds` accepts, for every claim, due
 * and availability rule core defines, over generated rows on a real database. Times are drawn
 * from a few instants around `now` (1 ms and a minute or two either side, null where a column
 * may be null), so every boundary (`<` against `<=`, a run-out lease, an interval just passed)
 * is met many times over.
 */

interface WideRow {
  readonly id: number
  readonly status: string
  readonly nextAttempt: Date | null
  readonly claimedUntil: Date | null
  readonly roundUrl: string | null
  readonly attempts: number
  readonly deadlineAt: Date
  readonly webhookEnabled: boolean
  readonly webhookUrl: string
  readonly attempt: number
  readonly endedAt: Date | null
  readonly eventAttempts: number
  readonly expiresAt: Date | null
  readonly automationEnabled: boolean
  readonly collectionAddress: string
  readonly automationLastRunAt: Date | null
  readonly automationIntervalMinutes: number
  readonly automationRoundClaimedUntil: Date | null
  readonly nextStepAt: Date
  readonly outcome: string
  readonly createdAt: Date
  readonly leaseHolder: string
  readonly leaseExpiresAt: Date | null
  readonly version: number
  readonly claimedBy: string | null
  readonly currentRound: number
  readonly balanceUsdt: bigint | null
  readonly balanceStaleFrom: bigint | null
}

interface WideParams {
  readonly now: Date
  readonly maxAttempts: number
  readonly before: Date
  readonly holder: string
  readonly version: number
  readonly threshold: bigint
  readonly solidified: bigint
  readonly atBlock: bigint
  readonly round: number
  readonly attempt: number
}

// One column per field, named as the field is in snake case; the rules read them as `r.<column>`.
const sqlTypes: { readonly [K in keyof WideRow]: string } = {
  id: "int",
  status: "text",
  nextAttempt: "timestamptz",
  claimedUntil: "timestamptz",
  roundUrl: "text",
  attempts: "int",
  deadlineAt: "timestamptz",
  webhookEnabled: "boolean",
  webhookUrl: "text",
  attempt: "int",
  endedAt: "timestamptz",
  eventAttempts: "int",
  expiresAt: "timestamptz",
  automationEnabled: "boolean",
  collectionAddress: "text",
  automationLastRunAt: "timestamptz",
  automationIntervalMinutes: "int",
  automationRoundClaimedUntil: "timestamptz",
  nextStepAt: "timestamptz",
  outcome: "text",
  createdAt: "timestamptz",
  leaseHolder: "text",
  leaseExpiresAt: "timestamptz",
  version: "int",
  claimedBy: "text",
  currentRound: "int",
  balanceUsdt: "numeric",
  balanceStaleFrom: "bigint"
}
const snake = (name: string) => name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`)
const columns = Object.fromEntries(Object.keys(sqlTypes).map((key) => [key, `r.${snake(key)}`])) as Columns<WideRow>
const recordType = Object.entries(sqlTypes).map(([key, type]) => `${snake(key)} ${type}`).join(", ")

const now = new Date("2026-11-29T08:00:00.000Z")
const around = [-120_000, -60_000, -1, 0, 1, 60_000].map((ms) => new Date(now.getTime() + ms))
const time = fc.constantFrom(...around)
const nullableTime = fc.option(time, { nil: null })

// Every status any rule names, and one none does.
const statuses = ["pending", "delivering", "delivered", "failed", "ready", "signed", "broadcast", "unknown", "succeeded", "cancelled", "active", "disabled", "deleted", "other"]

const wideRow = fc.record({
  status: fc.constantFrom(...statuses),
  nextAttempt: nullableTime,
  claimedUntil: nullableTime,
  roundUrl: fc.constantFrom(null, "", "https://example.test/hook"),
  attempts: fc.integer({ min: 0, max: 4 }),
  deadlineAt: time,
  webhookEnabled: fc.boolean(),
  webhookUrl: fc.constantFrom("", "https://example.test/hook"),
  attempt: fc.integer({ min: 0, max: 4 }),
  endedAt: nullableTime,
  eventAttempts: fc.integer({ min: 0, max: 4 }),
  expiresAt: nullableTime,
  automationEnabled: fc.boolean(),
  collectionAddress: fc.constantFrom("", "T9yD14Nj9j7xAB4dbGeiX9h8unkKHxuWwb"),
  automationLastRunAt: nullableTime,
  automationIntervalMinutes: fc.integer({ min: 0, max: 3 }),
  automationRoundClaimedUntil: nullableTime,
  nextStepAt: time,
  outcome: fc.constantFrom("running", "Succeeded", "Rejected"),
  createdAt: time,
  leaseHolder: fc.constantFrom("", "engine-a", "engine-b"),
  leaseExpiresAt: nullableTime,
  version: fc.integer({ min: 0, max: 2 }),
  claimedBy: fc.constantFrom(null, "engine-a", "engine-b"),
  currentRound: fc.integer({ min: 1, max: 2 }),
  balanceUsdt: fc.constantFrom(null, 0n, 999_999n, 1_000_000n, 1_000_001n, 2n ** 70n),
  balanceStaleFrom: fc.constantFrom(null, 99n, 100n, 101n)
})

const rows: ReadonlyArray<WideRow> = fc.sample(wideRow, { seed: 20261129, numRuns: 2_000 }).map((row, id) => ({ ...row, id }))

// Each rule reads a subset of the wide row's fields under the same names; the types of the
// statuses differ per rule, hence the cast.
const asWide = <R, P>(rule: Kernel.RowRule.Rule<R, P>) => rule as unknown as Kernel.RowRule.Rule<WideRow, WideParams>

const rules: ReadonlyArray<readonly [string, Kernel.RowRule.Rule<WideRow, WideParams>]> = [
  ["DeliveryRules.eventOpen", asWide(Notifications.DeliveryRules.eventOpen)],
  ["DeliveryRules.eventDue", asWide(Notifications.DeliveryRules.eventDue)],
  ["DeliveryRules.eventClaimable", asWide(Notifications.DeliveryRules.eventClaimable)],
  ["DeliveryRules.leaseHeld", asWide(Notifications.DeliveryRules.leaseHeld)],
  ["DeliveryRules.roundGoesOn", asWide(Notifications.DeliveryRules.roundGoesOn)],
  ["DeliveryRules.webhookConfigured", asWide(Notifications.DeliveryRules.webhookConfigured)],
  ["DeliveryRules.attemptBlocksStart", asWide(Notifications.DeliveryRules.attemptBlocksStart)],
  ["DeliveryRules.claimHeld", asWide(Notifications.DeliveryRules.claimHeld)],
  ["DeliveryRules.attemptHeld", asWide(Notifications.DeliveryRules.attemptHeld)],
  ["tenantAvailability", asWide(Tenants.tenantAvailability)],
  ["AutomationDue.automationDue", asWide(Sweeps.AutomationDue.automationDue)],
  ["SweepClaimable.sweepClaimable", asWide(Sweeps.SweepClaimable.sweepClaimable)],
  ["SweepClaimable.sweepUnclaimed", asWide(Sweeps.SweepClaimable.sweepUnclaimed)],
  ["accessTokenExpired", asWide(Tenants.accessTokenExpired)],
  ["idempotencyPrunable", asWide(Idempotency.idempotencyPrunable)],
  ["ScanLease.scanLeaseTakable", asWide(Scanning.ScanLease.scanLeaseTakable)],
  ["SweepClaimable.sweepHeldBy", asWide(Sweeps.SweepClaimable.sweepHeldBy)],
  ["AutomationDue.automationCandidate", asWide(Sweeps.AutomationDue.automationCandidate)],
  ["AutomationDue.taskStillCollecting", asWide(Sweeps.AutomationDue.taskStillCollecting)],
  ["BalanceStaleness.staleJumpsRotation", asWide(Balances.BalanceStaleness.staleJumpsRotation)],
  ["BalanceStaleness.staleWaitsInRotation", asWide(Balances.BalanceStaleness.staleWaitsInRotation)],
  ["BalanceStaleness.readingClearsMark", asWide(Balances.BalanceStaleness.readingClearsMark)]
]

const paramSets: ReadonlyArray<WideParams> = [
  { now, maxAttempts: 3, before: now, holder: "engine-a", version: 1, threshold: 1_000_000n, solidified: 100n, atBlock: 100n, round: 1, attempt: 2 },
  { now: around[1]!, maxAttempts: 1, before: around[4]!, holder: "engine-b", version: 0, threshold: 1n, solidified: 99n, atBlock: 101n, round: 2, attempt: 0 }
]

layer(TestDatabaseLive)("RowRuleSql", (it) => {
  it.effect("renders each core rule into SQL that keeps exactly the rows RowRule.holds accepts", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const json = JSON.stringify(rows.map((row) => Object.fromEntries(Object.entries(row).map(([key, value]) => [snake(key), typeof value === "bigint" ? value.toString() : value]))))
      for (const [name, rule] of rules) {
        for (const params of paramSets) {
          const found = yield* sql<{ id: number }>`
            SELECT r.id FROM jsonb_to_recordset(${json}::jsonb) AS r(${sql.unsafe(recordType)})
            WHERE ${render(sql, rule, columns, params)} ORDER BY r.id`
          const expected = rows.filter((row) => Kernel.RowRule.holds(rule, row, params)).map((row) => row.id)
          expect(found.map((row) => row.id), `${name} at ${params.now.toISOString()}`).toEqual(expected)
          // Both outcomes occur, or the rows would not test the rule.
          expect(expected.length, `${name}: some rows pass`).toBeGreaterThan(0)
          expect(expected.length, `${name}: some rows fail`).toBeLessThan(rows.length)
        }
      }
    }))
})
