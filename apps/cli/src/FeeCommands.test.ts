import { describe, expect, it } from "@effect/vitest"
import { freshDatabaseUrl } from "@collector/postgres/testing"
import { Effect, Redacted } from "effect"
import { randomBytes } from "node:crypto"
import pg from "pg"
import { runTs } from "../../../test-support/Processes.js"

const withDatabase = Effect.map(freshDatabaseUrl, ({ url }) => {
  const env = { DATABASE_URL: Redacted.value(url), MASTER_KEY: randomBytes(32).toString("base64") }
  return { cli: (...args: Array<string>) => Effect.promise(() => runTs("apps/cli/src/main.ts", env, args)), url: Redacted.value(url) }
})

const query = (url: string, text: string, values: Array<unknown> = []) =>
  Effect.promise(async () => {
    const client = new pg.Client({ connectionString: url })
    await client.connect()
    try {
      return (await client.query(text, values)).rows
    } finally {
      await client.end()
    }
  })

/** A ledger entry as the booking pass stores it; figures hand-picked (docs/fees.md's worked example). */
const insertEntry = (url: string, tenantId: string, taskId: number, network: string, blockTime: string, e: Record<string, string>) =>
  query(url, `
    INSERT INTO fee_ledger (task_id, tenant_id, network, wallet_id, txid, block_number, block_time, energy_own, energy_delegated,
      energy_rented, energy_burned, network_energy_fee, network_bandwidth_fee, provider_energy_cost, provider_activation_cost,
      lending_fee, energy_price, burn_equivalent, saving, booked_at)
    VALUES ($1, $2, $3, 1, $4, 1000, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, 100, $15, $16, now())`, [
    taskId, tenantId, network, String(taskId).padStart(64, "a"), blockTime, e.own ?? "0", e.delegated ?? "0", e.rented ?? "0", e.burned ?? "0",
    e.networkEnergy ?? "0", e.bandwidth ?? "0", e.provider ?? "0", e.activation ?? "0", e.lending ?? "0", e.burnEquivalent ?? "0", e.saving ?? "0"
  ])

describe("cli fees", () => {
  it.scoped("sums the tenant's ledger over the period, as a table and as JSON, per network", () =>
    Effect.gen(function*() {
      const { cli, url } = yield* withDatabase
      const created = JSON.parse((yield* cli("tenant", "create", "--name", "acme", "--networks", "nile,main", "--json")).stdout)
      const tenant = created.tenant_id as string
      // All burned (64,285 at 100 SUN, 345,000 bandwidth) and rented (130,285: 65,000 rented at 80, 65,285 burned).
      yield* insertEntry(url, tenant, 101, "main", "2026-03-02T00:00:00Z", { burned: "64285", networkEnergy: "6428500", bandwidth: "345000", burnEquivalent: "6428500", saving: "0" })
      yield* insertEntry(url, tenant, 102, "main", "2026-03-03T00:00:00Z", { rented: "65000", burned: "65285", networkEnergy: "6528500", provider: "5200000", burnEquivalent: "13028500", saving: "1300000" })
      // Lent from the own stake, whose delegation and reclaim burned 537,000: saving 6,428,500 − 537,000.
      yield* insertEntry(url, tenant, 105, "main", "2026-03-04T00:00:00Z", { delegated: "64285", lending: "537000", burnEquivalent: "6428500", saving: "5891500" })
      // Outside the period, and on the other network.
      yield* insertEntry(url, tenant, 103, "main", "2026-04-01T00:00:00Z", { own: "64285", burnEquivalent: "6428500", saving: "6428500" })
      yield* insertEntry(url, tenant, 104, "nile", "2026-03-02T00:00:00Z", { own: "64285", burnEquivalent: "6428500", saving: "6428500" })

      const run = yield* cli("fees", "--tenant", "acme", "--network", "mainnet", "--since", "2026-03-01", "--until", "2026-04-01", "--json")
      expect(run.code, run.stderr).toBe(0)
      expect(JSON.parse(run.stdout)).toEqual({
        tenant_id: tenant,
        since: "2026-03-01T00:00:00.000Z",
        until: "2026-04-01T00:00:00.000Z",
        networks: [{
          network: "main",
          sweeps: 3,
          energy: { own: "0", delegated: "64285", rented: "65000", burned: "129570" },
          trx_to_network_sun: { energy: "12957000", bandwidth: "345000" },
          trx_to_providers_sun: { energy: "5200000", activation: "0" },
          trx_for_lending_sun: "537000",
          // 6,428,500 × 2 + 13,028,500; saving 1,300,000 + 5,891,500 of it: 7,191,500 × 10,000 / 25,885,500 = 2,778 hundredths
          burn_equivalent_sun: "25885500",
          saving_sun: "7191500",
          saving_percent: "27.78"
        }]
      })
      const table = yield* cli("fees", "--tenant", tenant, "--since", "2026-03-01T00:00:00Z")
      expect(table.code, table.stderr).toBe(0)
      expect(table.stdout).toContain("main: 4 sweeps")
      expect(table.stdout).toContain("nile: 1 sweeps")
      expect(table.stdout).toContain("TRX to network      13.302000 (energy 12.957000, bandwidth 0.345000)")
      expect(table.stdout).toContain("TRX for lending     0.537000 (burned by the resource account to delegate and reclaim)")
      // Main: saving 0 + 1,300,000 + 6,428,500 + 5,891,500 = 13,620,000 of 32,314,000 burn-equivalent: 4,214 hundredths.
      expect(table.stdout).toContain("saving              13.620000 TRX (42.14 %)")
    }), { timeout: 120_000 })

  it.scoped("refuses bad arguments with a clear message and a non-zero exit", () =>
    Effect.gen(function*() {
      const { cli } = yield* withDatabase
      yield* cli("tenant", "create", "--name", "acme", "--networks", "nile", "--json")
      const cases: ReadonlyArray<readonly [ReadonlyArray<string>, number, string]> = [
        [["fees", "--since", "2026-03-01"], 2, "fees needs --tenant <id or name>"],
        [["fees", "--tenant", "acme"], 2, "--since takes an ISO date"],
        [["fees", "--tenant", "acme", "--since", "yesterday"], 2, "--since takes an ISO date"],
        [["fees", "--tenant", "acme", "--since", "2026-03-01", "--network", "shasta"], 2, "--network must be nile or mainnet"],
        [["fees", "--tenant", "acme", "--since", "2026-03-01", "--until", "2026-02-01"], 2, "--until must be later than --since"],
        [["fees", "--tenant", "nobody", "--since", "2026-03-01"], 1, "nobody"]
      ]
      const runs = yield* Effect.forEach(cases, ([args]) => cli(...args), { concurrency: 3 })
      runs.forEach((run, i) => {
        const [args, code, message] = cases[i]!
        expect(run.code, args.join(" ")).toBe(code)
        expect(run.stderr, args.join(" ")).toContain(message)
      })
    }), { timeout: 120_000 })
})
