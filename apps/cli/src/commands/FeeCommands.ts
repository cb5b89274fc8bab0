import { Fees, type Kernel, Tenants } from "@collector/core"
import { Console, Effect } from "effect"
import { UsageError } from "../CliError.js"
import type { Parsed } from "./TenantCommands.js"

/** `--network` as the operator may write it; both when absent. */
const networksOf = (value: unknown): Effect.Effect<ReadonlyArray<Kernel.Network>, UsageError> => {
  if (value === undefined) return Effect.succeed(["nile", "main"])
  if (value === "nile") return Effect.succeed(["nile"])
  if (value === "main" || value === "mainnet") return Effect.succeed(["main"])
  return Effect.fail(new UsageError({ message: `--network must be nile or mainnet (main), not ${JSON.stringify(value)}` }))
}

/** An ISO date (2026-03-01) or date-time with its zone (2026-03-01T12:00:00Z); nothing else. */
const isoDate = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2}))?$/

const dateOf = (flag: string, value: unknown): Effect.Effect<Date, UsageError> => {
  const date = typeof value === "string" && isoDate.test(value) ? new Date(value) : null
  return date !== null && !Number.isNaN(date.getTime())
    ? Effect.succeed(date)
    : Effect.fail(new UsageError({ message: `--${flag} takes an ISO date (2026-03-01) or date-time with its zone (2026-03-01T12:00:00Z), not ${JSON.stringify(value ?? "")}` }))
}

/** SUN as TRX with six decimals, from bigint alone. */
export const trx = (sun: bigint): string => {
  const sign = sun < 0n ? "-" : ""
  const abs = sun < 0n ? -sun : sun
  return `${sign}${abs / 1_000_000n}.${(abs % 1_000_000n).toString().padStart(6, "0")}`
}

/** One network's totals as JSON: amounts as decimal strings (SUN and energy), never JS numbers. */
const json = (network: Kernel.Network, t: Fees.FeeTotals) => ({
  network,
  sweeps: t.entries,
  energy: { own: `${t.energy.own}`, delegated: `${t.energy.delegated}`, rented: `${t.energy.rented}`, burned: `${t.energy.burned}` },
  trx_to_network_sun: { energy: `${t.networkEnergyFee}`, bandwidth: `${t.networkBandwidthFee}` },
  trx_to_providers_sun: { energy: `${t.providerEnergyCost}`, activation: `${t.providerActivationCost}` },
  trx_for_lending_sun: `${t.lendingFee}`,
  burn_equivalent_sun: `${t.burnEquivalent}`,
  saving_sun: `${t.saving}`,
  saving_percent: Fees.savingPercent(t)
})

const table = (network: Kernel.Network, t: Fees.FeeTotals) => {
  const percent = Fees.savingPercent(t)
  return [
    `${network}: ${t.entries} sweeps`,
    `  energy own          ${t.energy.own}`,
    `  energy delegated    ${t.energy.delegated}`,
    `  energy rented       ${t.energy.rented}`,
    `  energy burned       ${t.energy.burned}`,
    `  TRX to network      ${trx(t.networkEnergyFee + t.networkBandwidthFee)} (energy ${trx(t.networkEnergyFee)}, bandwidth ${trx(t.networkBandwidthFee)})`,
    `  TRX to providers    ${trx(t.providerEnergyCost + t.providerActivationCost)} (energy ${trx(t.providerEnergyCost)}, activation ${trx(t.providerActivationCost)})`,
    `  TRX for lending     ${trx(t.lendingFee)} (burned by the resource account to delegate and reclaim)`,
    `  burn-equivalent     ${trx(t.burnEquivalent)} TRX`,
    `  saving              ${trx(t.saving)} TRX${percent === null ? "" : ` (${percent} %)`}`
  ].join("\n")
}

/**
 * `fees --tenant <id or name> [--network nile|mainnet] --since <ISO date> [--until <ISO date>] [--json]`:
 * the fee ledger's totals of the tenant over the period of block times [since, until).
 */
export const fees = (parsed: Parsed) =>
  Effect.gen(function*() {
    const reference = parsed.values.tenant
    if (typeof reference !== "string" || reference === "") return yield* new UsageError({ message: "fees needs --tenant <id or name>" })
    const networks = yield* networksOf(parsed.values.network)
    const since = yield* dateOf("since", parsed.values.since)
    const until = parsed.values.until === undefined ? undefined : yield* dateOf("until", parsed.values.until)
    if (until !== undefined && until.getTime() <= since.getTime()) {
      return yield* new UsageError({ message: "--until must be later than --since" })
    }
    const tenantId = (yield* (yield* Tenants.TenantRepository).find(reference)).id as Kernel.TenantId
    const ledger = yield* Fees.FeeLedger
    const period = until === undefined ? { since } : { since, until }
    const totals = yield* Effect.forEach(networks, (network) => Effect.map(ledger.totals({ tenantId, network }, period), (t) => [network, t] as const))
    if (parsed.values.json === true) {
      return yield* Console.log(JSON.stringify({
        tenant_id: tenantId,
        since: since.toISOString(),
        until: until?.toISOString() ?? null,
        networks: totals.map(([network, t]) => json(network, t))
      }))
    }
    yield* Console.log([
      `Fees of tenant ${tenantId} from ${since.toISOString()}${until === undefined ? "" : ` until ${until.toISOString()}`} (block times)`,
      ...totals.map(([network, t]) => table(network, t))
    ].join("\n"))
  })
