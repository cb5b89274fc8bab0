import { Engine } from "@collector/core"
import { SimEnergyProvider } from "@collector/energy"
import { freePort } from "@collector/postgres"
import { defaultSimConfig, SimInProcess } from "@collector/tron-sim"
import { Duration, Effect } from "effect"
import { randomBytes } from "node:crypto"
import { chmodSync, mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { inspect } from "node:util"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import * as Collector from "./Collector.js"

const amount = 12_345_678n

/** A simulated nile answering in this process, and the collector's network part that speaks to it. */
const simulatedNile = async (seed: string) => {
  const sim = await Effect.runPromise(SimInProcess.make(defaultSimConfig("nile", { seed })))
  const part: Collector.NetworkPart = {
    network: "nile",
    nodeUrls: [sim.url],
    usdtContract: sim.chain.config.usdtContract,
    requestsPerSecond: 10_000,
    energyProvider: { kind: "sim", network: "nile", config: SimEnergyProvider.defaultSimProviderConfig(sim.url) },
    http: sim.layer
  }
  return { sim, part }
}

/** Short polls: the simulated chain moves only when told to. */
const engine = { loop: { ...Engine.defaultEngineSettings.loop, pollInterval: Duration.millis(50) }, processName: "collector-test" }

const eventually = async <A>(what: string, read: () => Promise<A>, done: (value: A) => boolean, timeoutMs = 30_000): Promise<A> => {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const value = await read()
    if (done(value)) return value
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; last: ${inspect(value, { depth: 4 })}`)
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
}

/**
 * The constructor's whole path, as an embedder walks it: a tenant, a wallet, USDT sent to the
 * wallet on the simulated chain, the blocks its confirmation rule needs, and the deposit booked
 * and confirmed with the chain's amount and transaction.
 */
const depositIsBooked = async (collector: Collector.CollectorHandle, sim: Awaited<ReturnType<typeof simulatedNile>>["sim"]) => {
  await eventually("the scanner's first pass", () => collector.scannedBlock("nile"), (block) => block !== null)
  const { credentials, tenant } = await collector.tenants.create(`shop-${randomBytes(3).toString("hex")}`, ["nile"])
  expect(credentials.map((c) => c.network)).toEqual(["nile"])
  const scope = { tenantId: tenant.id, network: "nile" as const }
  const wallet = await collector.wallets.create(scope, "alice")
  await expect(collector.wallets.create(scope, "alice")).rejects.toMatchObject({ _tag: "CustomIdTaken" })

  const txid = await Effect.runPromise(sim.chain.mintUsdt(wallet.address, amount))
  // The default rule is `solidified`: the transfer's block and solidifyDepth more on top of it.
  await Effect.runPromise(sim.chain.mine(1 + sim.chain.config.solidifyDepth))
  const page = await eventually(
    "a confirmed deposit",
    () => collector.deposits.list(scope),
    (listed) => listed.items.some((deposit) => deposit.status === "confirmed")
  )
  expect(page.total).toBe(1)
  expect(page.items[0]).toMatchObject({ txid, amount, status: "confirmed" })
}

describe("Collector.make on memory storage", () => {
  it("books a deposit of the simulated chain and closes", async () => {
    const { part, sim } = await simulatedNile("collector-memory")
    const collector = await Collector.make({
      database: { kind: "memory" },
      networks: [part],
      keyStore: { masterKey: randomBytes(32) },
      engine
    })
    try {
      await depositIsBooked(collector, sim)
    } finally {
      await collector.close()
    }
  }, 60_000)
})

describe("Collector.make on an embedded PostgreSQL", () => {
  let dataDir: string
  let collector: Collector.CollectorHandle
  let sim: Awaited<ReturnType<typeof simulatedNile>>["sim"]

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), "collector-make-"))
    // Run as root, PostgreSQL runs as the `postgres` user, which must reach <dataDir>/pg.
    chmodSync(dataDir, 0o755)
    const nile = await simulatedNile("collector-postgres")
    sim = nile.sim
    collector = await Collector.make({
      database: { kind: "embedded", dataDir, port: await freePort() },
      networks: [nile.part],
      keyStore: { masterKey: randomBytes(32) },
      engine
    })
  }, 120_000)

  afterAll(async () => {
    await collector?.close()
    rmSync(dataDir, { recursive: true, force: true })
  }, 60_000)

  it("books a deposit of the simulated chain", () => depositIsBooked(collector, sim), 60_000)

  it("refuses a scope without a tenant ID before the database sees it, naming the field", async () => {
    const scope = { tenantId: undefined, network: "nile" } as unknown as { tenantId: string; network: "nile" }
    const refused = await collector.wallets.create(scope, "bob").catch((error: unknown) => error)
    expect(refused).toMatchObject({ _tag: "InvalidInput", operation: "wallets.create", field: "scope.tenantId" })
    expect(String((refused as Error).message)).toMatch(/^wallets\.create: scope\.tenantId /)
  })

  it("refuses a network it does not know and a bad page size, naming each", async () => {
    await expect(collector.tenants.create("shop-x", ["mainnet" as "main"])).rejects.toMatchObject({ _tag: "InvalidInput", field: "networks.0" })
    const { tenant } = await collector.tenants.create(`shop-${randomBytes(3).toString("hex")}`, ["nile"])
    await expect(collector.deposits.list({ tenantId: tenant.id, network: "nile" }, { pageSize: 0 })).rejects.toMatchObject({
      _tag: "InvalidInput",
      field: "query.pageSize"
    })
  })
})
