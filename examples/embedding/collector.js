// The collector embedded in this service: one call, `Collector.make(settings)` from
// @collector/server, assembles the database, the keys, the simulated TRON network "nile", the
// engine of that network (running in the background) and the calls this service makes (tenants,
// wallets, deposits), each a plain promise. Only package roots are imported.
import { SimEnergyProvider } from "@collector/energy"
import { Collector } from "@collector/server"
import { defaultSimConfig, SimInProcess } from "@collector/tron-sim"
import { Effect } from "effect"

/** The one network this service uses. */
export const network = "nile"

/**
 * The simulated nile, answering in this process (no socket): `sim.layer` is an HTTP client that
 * the collector's production node adapter and energy provider talk to unchanged. `sim.chain` has
 * the controls (`mintUsdt`, `mine`, ...), Effects run with `Effect.runPromise`. Blocks come only
 * when `mine` is called (the smoke test does). Its chain lives in memory: every start is a new
 * chain, so give it a database that never scanned another one (the embedded default is new each run).
 */
const simulatedNile = async () => {
  const sim = await Effect.runPromise(SimInProcess.make(defaultSimConfig(network, { seed: "embedding-example" })))
  const part = {
    network,
    nodeUrls: [sim.url],
    usdtContract: sim.chain.config.usdtContract,
    // The default (10 requests/s) is a public node's budget; the simulator needs none.
    requestsPerSecond: 10_000,
    energyProvider: { kind: "sim", network, config: SimEnergyProvider.defaultSimProviderConfig(sim.url) },
    http: sim.layer
  }
  return { sim, part }
}

/**
 * The collector, started: resolves once the database is up and migrated, the master key checked
 * and the engine running; rejects (with nothing left running) when a part cannot start.
 *
 * - `database`: `{ kind: "embedded", dataDir, port }` (a PostgreSQL under `<dataDir>/pg`) or
 *   `{ kind: "url", url }`.
 * - `masterKey`: 32 bytes that seal every wallet key and app secret.
 *
 * Returns `{ collector, sim, tenant, scope }`: the handle, the simulator's controls, the tenant this
 * service keeps its customers' wallets under (found by name, or created on the first start) and
 * its scope `{ tenantId, network }`.
 */
export const startCollector = async ({ database, masterKey, tenantName }) => {
  const { sim, part } = await simulatedNile()
  const collector = await Collector.make({
    database,
    networks: [part],
    keyStore: { masterKey },
    // Webhooks go to public HTTPS URLs only (the reference server's default).
    outbound: { allowPrivateTargets: false },
    engine: true
  })
  try {
    const tenant = await collector.tenants.find(tenantName).catch(async (error) => {
      if (error?._tag !== "TenantNotFound") throw error
      // `create` also returns the app secret and webhook key, once: they are for the collector's
      // HTTP API and webhooks, which this service does not use (it calls the collector directly).
      const created = await collector.tenants.create(tenantName, [network])
      console.log(`created tenant ${created.tenant.name} (id ${created.tenant.id})`)
      return created.tenant
    })
    return { collector, sim, tenant, scope: { tenantId: tenant.id, network } }
  } catch (error) {
    await collector.close()
    throw error
  }
}
