/**
 * Sweep throughput beside the signing rate, in one run: tasks per second from the first create
 * to every task `succeeded` on the simulated node (own-energy wallets: no rental, no TRX burned),
 * and the production Signer alone (AES-GCM open, address check, secp256k1 signature, zeroing) as
 * the reference. Run with `npm run bench:sweeps` (BENCH_SWEEPS, BENCH_SWEEPERS,
 * BENCH_SWEEP_CONCURRENCY, BENCH_BATCH_SIZE, BENCH_BLOCK_MS, BENCH_SETTLE_MS, BENCH_IDLE_MS,
 * BENCH_SIGNING_KEYS, BENCH_HTTP=fetch|node, BENCH_CPU_PROF=1 (this process, sweeper phase and the reference's run, with a by-layer table of both), BENCH_SIM_CPU_PROF=1, BENCH_TIMEOUT_S, BENCH_VERBOSE=1 for every pass).
 *
 * The simulator runs in its own process (this file again, with BENCH_SWEEPS_ROLE=sim): every
 * wallet is a genesis account (1 TRX, some USDT, 100,000 delegated energy), so setting up
 * thousands of wallets takes no control calls. Blocks come from the simulator's own timer every
 * BENCH_BLOCK_MS, and the chain's block interval is set to the same figure: chain time keeps
 * pace with the sweeper's clock, so a transaction's expiration (counted from the head block's
 * time) and the sweeper's validity and expiry-proof checks mean in wall time what they mean on
 * mainnet; only solidification comes sooner (19 blocks: 3.8 s at 200 ms instead of 57 s).
 * BENCH_BLOCK_MS=3000 BENCH_SETTLE_MS=3000 runs at mainnet's pace.
 *
 * Every sweeper port (Chain, SweepRepository, SettingsRepository, Signer) is the production
 * adapter wrapped in a timer, so the run also prints where the sweeper's time goes.
 *
 * Fair reference (issue 21): after our sweeper's run and its checks, `bench/support/ReferenceSweeper.ts`
 * (no Effect runtime) sweeps BENCH_REFERENCE_SWEEPS further wallets (default BENCH_SWEEPS; 0 skips
 * it; genesis accounts like ours, keys `wallet(0x200000 + i)`) to the same collection address on
 * the same simulator, with BENCH_SWEEP_CONCURRENCY in flight and chunks of BENCH_BATCH_SIZE, block
 * waits excluded on both sides, and prints `RATIO sweeps <ours>/<reference> = <percent>%` (busy
 * tasks/s over the reference's settled transfers/s). Quick mode: BENCH_SWEEPS=300.
 */
import { Chain, Energy, type Kernel, Secrets, Settings, Sweeps, Wallets } from "@collector/core"
import {
  DatabaseAtUrl,
  PgComponentStatus,
  PgDelegationLedger,
  PgResourceAccounts,
  PgSettingsRepository,
  PgSweepRepository,
  PgWalletRepository
} from "@collector/postgres"
import { LocalSigner, TronSignature } from "@collector/tron"
import { defaultNodeConfig, nodeHttpClient, TronNodeChain } from "@collector/tron-node"
import { defaultSimConfig, type GenesisAccount, SimHttp, SimState, usdtHex } from "@collector/tron-sim"
import { wallet } from "@collector/tron-sim/testing"
import { WorldState } from "@collector/tron-sim"
import { AesGcmSecretBox, MasterKey, MasterKeyring, NodeEntropy } from "@collector/vault"
import { FetchHttpClient, HttpClient } from "@effect/platform"
import { Duration, Effect, Exit, Fiber, Layer, ManagedRuntime, Option, Redacted, Scope } from "effect"
import { spawn } from "node:child_process"
import { fileURLToPath } from "node:url"
import { randomBytes } from "node:crypto"
import { cpus, totalmem } from "node:os"
import { createInterface } from "node:readline"
import pg from "pg"
import { freePort, repositoryRoot, sourceArgs } from "../test-support/Processes.js"
import { benchDatabase } from "./support/BenchDatabase.js"
import { childProfileFlags, phaseProfiler } from "./support/CpuProfile.js"
import { printPhaseBreakdown } from "./support/ProfileBreakdown.js"
import { makePortTiming } from "./support/PortTiming.js"
import { type ReferenceResult, runReferenceSweeper } from "./support/ReferenceSweeper.js"
import { childrenCpu } from "./support/ProcessCpu.js"
import { runBothKeyStores } from "./support/BothKeyStores.js"
import { benchKeyStore, benchTokens, measureToken, type TokenFigures, tokenWithKeys } from "./support/TokenSigning.js"
import { Pkcs11Signer } from "@collector/pkcs11"

const env = (name: string, fallback: number) => Number(process.env[name] ?? fallback)
const taskCount = env("BENCH_SWEEPS", 10_000)
const sweeperCount = env("BENCH_SWEEPERS", 1)
const concurrency = env("BENCH_SWEEP_CONCURRENCY", 32)
const batchSize = env("BENCH_BATCH_SIZE", 500)
const blockMs = env("BENCH_BLOCK_MS", 200)
const settleMs = env("BENCH_SETTLE_MS", 300)
const idleMs = env("BENCH_IDLE_MS", 100)
const signingKeys = env("BENCH_SIGNING_KEYS", 2000)
// `--key-store pkcs11` (or BENCH_KEY_STORE=pkcs11): also wallet creation and signing in a SoftHSM2
// token, beside the local signer's figures; BENCH_TOKEN_WALLETS keys (generation is slow: one file
// each). `--key-store both`: a run with each store, one after the other, then one table of the two.
const keyStore = benchKeyStore()
const tokenWallets = env("BENCH_TOKEN_WALLETS", 300)
const tokenSessions = env("BENCH_TOKEN_SESSIONS", 4)
const createBatch = 1000
const poolSize = 20
const timeoutMs = env("BENCH_TIMEOUT_S", 300 + taskCount * 0.5) * 1000
const verbose = process.env.BENCH_VERBOSE === "1"
const httpClient = process.env.BENCH_HTTP === "fetch" ? "fetch" : "node"

/** Keys of the tenant's wallets are `wallet(keyBase + i)`; the collection address is `wallet(keyBase - 1)`. */
const keyBase = 0x100000
/** Keys of the fair reference's wallets (outside the tenant): `wallet(referenceKeyBase + i)`. */
const referenceKeyBase = 0x200000
const referenceCount = env("BENCH_REFERENCE_SWEEPS", taskCount)
/** Each wallet's USDT at genesis: distinct, 1 to 500 USDT. */
const usdtAt = (i: number) => BigInt(1 + (i % 500)) * 1_000_000n + BigInt(i)
/** The collection address holds USDT from the start, so every sweep is a transfer to a holder (64,285 energy). */
const collectionUsdt = 1_000_000n
const delegatedEnergy = 100_000n
const log = (line: string) => console.log(line)

// --- The simulator process --------------------------------------------------------------------

interface SimReport {
  readonly head: string
  readonly solidified: string
  readonly pending: number
  /** Non-system transactions on the canonical chain, by sender: how many senders sent 0, 1 or more. */
  readonly walletsSentNone: number
  readonly walletsSentOne: number
  readonly walletsSentMore: number
  readonly otherSenders: number
  readonly notSuccess: number
  /** SUN burned by the wallets' transactions (fees on their receipts). */
  readonly burned: string
  readonly collectionHead: string
  readonly collectionSolidified: string
  /** USDT left on the tenant's wallets at the head. */
  readonly leftOnWallets: string
  /** The fair reference's wallets: how many sent exactly one transaction, USDT left on them, SUN burned. */
  readonly referenceSentOne: number
  readonly referenceLeft: string
  readonly referenceBurned: string
}

const runSimulator = async () => {
  const count = Number(process.env.BENCH_SIM_WALLETS)
  const port = Number(process.env.BENCH_SIM_PORT)
  const collection = wallet(keyBase - 1)
  const hexes = new Set<string>()
  const genesisAccounts: Array<GenesisAccount> = [{ address: collection.address, usdt: collectionUsdt }]
  for (let i = 0; i < count; i++) {
    const w = wallet(keyBase + i)
    hexes.add(w.hex)
    genesisAccounts.push({ address: w.address, trx: 1_000_000n, usdt: usdtAt(i), delegatedEnergy })
  }
  const referenceHexes = new Set<string>()
  for (let i = 0; i < Number(process.env.BENCH_SIM_REFERENCE_WALLETS ?? 0); i++) {
    const w = wallet(referenceKeyBase + i)
    referenceHexes.add(w.hex)
    genesisAccounts.push({ address: w.address, trx: 1_000_000n, usdt: usdtAt(i), delegatedEnergy })
  }
  const chain = defaultSimConfig("nile", { seed: "bench-sweeps", blockIntervalMs: blockMs, genesisAccounts })
  const scope = Effect.runSync(Scope.make())
  const server = await Effect.runPromise(Scope.extend(SimHttp.start({ chain, port, blocks: "timer" }), scope))

  const report = async (): Promise<SimReport> => {
    const state = await Effect.runPromise(server.chain.state)
    const usdt = usdtHex(state.config)
    const sent = new Map<string, number>()
    let otherSenders = 0
    let notSuccess = 0
    let burned = 0n
    const referenceSent = new Map<string, number>()
    let referenceBurned = 0n
    for (const block of state.blocks) {
      for (const included of block.transactions) {
        if (included.system) continue
        const owner = ((included.tx.raw.contract[0]?.parameter.value as { owner_address?: string } | undefined)?.owner_address ?? "").toLowerCase()
        if (referenceHexes.has(owner)) {
          referenceSent.set(owner, (referenceSent.get(owner) ?? 0) + 1)
          referenceBurned += included.info.fee
          if (included.info.contractRet !== "SUCCESS") notSuccess++
          continue
        }
        if (!hexes.has(owner)) {
          otherSenders++
          continue
        }
        sent.set(owner, (sent.get(owner) ?? 0) + 1)
        if (included.info.contractRet !== "SUCCESS") notSuccess++
        burned += included.info.fee
      }
    }
    const head = SimState.head(state)
    const solidified = SimState.solidified(state)
    let left = 0n
    for (const hex of hexes) left += WorldState.tokenBalance(head.world, usdt, hex)
    let referenceLeft = 0n
    for (const hex of referenceHexes) referenceLeft += WorldState.tokenBalance(head.world, usdt, hex)
    const counts = [...hexes].map((hex) => sent.get(hex) ?? 0)
    return {
      head: String(head.number),
      solidified: String(solidified.number),
      pending: state.pending.length,
      walletsSentNone: counts.filter((n) => n === 0).length,
      walletsSentOne: counts.filter((n) => n === 1).length,
      walletsSentMore: counts.filter((n) => n > 1).length,
      otherSenders,
      notSuccess,
      burned: String(burned),
      collectionHead: String(WorldState.tokenBalance(head.world, usdt, collection.hex)),
      collectionSolidified: String(WorldState.tokenBalance(solidified.world, usdt, collection.hex)),
      leftOnWallets: String(left),
      referenceSentOne: [...referenceHexes].filter((hex) => referenceSent.get(hex) === 1).length,
      referenceLeft: String(referenceLeft),
      referenceBurned: String(referenceBurned)
    }
  }

  const stop = () => Effect.runPromise(Scope.close(scope, Exit.void)).finally(() => process.exit(0))
  process.once("SIGTERM", stop)
  // Orders come on stdin; when the benchmark goes away (stdin closes), so does the simulator.
  createInterface({ input: process.stdin })
    .on("line", (line) => {
      if (line === "report") void report().then((r) => console.log(`@@report ${JSON.stringify(r)}`))
      if (line === "exit") void stop()
    })
    .on("close", () => void stop())
  console.log(`@@ready ${server.url}`)
}

/** Starts the simulator process; resolves with its URL and a way to ask it for the chain's tally. */
const startSimulator = (count: number, port: number) =>
  new Promise<{ url: string; pid: number | undefined; report: () => Promise<SimReport>; stop: () => void }>((ready, failed) => {
    const profile = childProfileFlags(process.env.BENCH_SIM_CPU_PROF === "1")
    const child = spawn(process.execPath, [...profile, ...sourceArgs, `${repositoryRoot}/bench/sweeps.ts`], {
      env: {
        ...process.env,
        BENCH_SWEEPS_ROLE: "sim",
        BENCH_SIM_WALLETS: String(count),
        BENCH_SIM_REFERENCE_WALLETS: String(referenceCount),
        BENCH_SIM_PORT: String(port)
      },
      stdio: ["pipe", "pipe", "inherit"]
    })
    process.on("exit", () => child.kill("SIGTERM"))
    const waiting: Array<(r: SimReport) => void> = []
    child.on("exit", (code) => failed(new Error(`the simulator process exited (${code})`)))
    createInterface({ input: child.stdout! }).on("line", (line) => {
      if (line.startsWith("@@ready ")) {
        ready({
          url: line.slice(8),
          pid: child.pid,
          report: () =>
            new Promise((done) => {
              waiting.push(done)
              child.stdin!.write("report\n")
            }),
          stop: () => child.stdin!.write("exit\n")
        })
      } else if (line.startsWith("@@report ")) waiting.shift()?.(JSON.parse(line.slice(9)))
      else process.stdout.write(`[sim] ${line}\n`)
    })
  })

// --- The benchmark ----------------------------------------------------------------------------

/** Counts the node calls made through a client, by path. */
const counting = (client: Layer.Layer<HttpClient.HttpClient>, counter: { calls: number; byPath: Map<string, number> }) =>
  Layer.effect(
    HttpClient.HttpClient,
    Effect.map(HttpClient.HttpClient, HttpClient.tapRequest((request) =>
      Effect.sync(() => {
        counter.calls++
        const path = new URL(request.url).pathname
        counter.byPath.set(path, (counter.byPath.get(path) ?? 0) + 1)
      })))
  ).pipe(Layer.provide(client))

/** Summed latency of every port call the sweeper makes, by port and operation (concurrent calls overlap). */
const portTiming = makePortTiming()
const instrumented = portTiming.instrumented

/** The statuses of the tasks each worker's last claim returned: which step its pass was taking. */
const lastClaim = new Map<string, Record<string, number>>()
const claimTally = Layer.effect(Sweeps.SweepRepository, Effect.map(Sweeps.SweepRepository, (repo) => ({
  ...repo,
  claim: (...args: Parameters<typeof repo.claim>) =>
    Effect.tap(repo.claim(...args), (tasks) =>
      Effect.sync(() => {
        const tally: Record<string, number> = {}
        for (const task of tasks) tally[task.status] = (tally[task.status] ?? 0) + 1
        lastClaim.set(args[1], tally)
      }))
})))

/** Total length of the union of [start, end) intervals: time when at least one sweeper was in a pass that claimed work. */
const unionLength = (intervals: ReadonlyArray<readonly [number, number]>) => {
  const sorted = [...intervals].sort((a, b) => a[0] - b[0])
  let total = 0
  let [start, end] = sorted[0] ?? [0, 0]
  for (const [s, e] of sorted.slice(1)) {
    if (s > end) {
      total += end - start
      start = s
      end = e
    } else if (e > end) end = e
  }
  return total + (end - start)
}

const main = async () => {
  const machine = `${cpus().length} x ${cpus()[0]?.model ?? "cpu"}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, node ${process.version}`
  const setupStarted = performance.now()
  // The simulator computes its genesis (every wallet's address) while this process does the same.
  const simPort = await freePort()
  const simStarting = startSimulator(taskCount, simPort)

  const databaseScope = Effect.runSync(Scope.make())
  const url = await Effect.runPromise(Scope.extend(benchDatabase("bench-sweeps"), databaseScope))
  const masterKey = MasterKey.unsafeMake(randomBytes(32))
  const keyring = MasterKeyring.make({ current: masterKey })
  const box = AesGcmSecretBox.make(keyring, NodeEntropy.make)

  // Wallets: deterministic keys, sealed under the run's master key.
  const collection = wallet(keyBase - 1)
  const wallets = Array.from({ length: taskCount }, (_, i) => {
    const w = wallet(keyBase + i)
    return { address: w.address, sealed: Effect.runSync(box.seal(w.secretKey, Secrets.walletKeyContext(w.address))) }
  })
  // With --key-store pkcs11 the sweeper signs through a SoftHSM2 token holding the same keys.
  const tokenScope = Effect.runSync(Scope.make())
  const tokens = keyStore === "pkcs11" ? benchTokens(tokenSessions) : undefined
  const sweepToken = tokens !== undefined
    ? await Effect.runPromise(Scope.extend(tokenWithKeys(tokens.sweeps, wallets.map((_, i) => wallet(keyBase + i))), tokenScope))
    : undefined
  if (sweepToken !== undefined) log(`imported ${taskCount} wallet keys into ${sweepToken.opened.description}; the sweeper signs there`)

  const counter = { calls: 0, byPath: new Map<string, number>() }
  const sim = await simStarting
  const node = defaultNodeConfig("nile", {
    fullNodeUrl: sim.url,
    solidityUrl: sim.url,
    requestsPerSecond: 1_000_000,
    requestTimeout: Duration.seconds(30)
  })
  const http = counting(httpClient === "node" ? nodeHttpClient() : FetchHttpClient.layer, counter)
  // The production adapters, each operation timed on its way through (see `instrumented`).
  const nodeParts = Layer.mergeAll(
    instrumented(Chain.Chain, "chain").pipe(Layer.provide(Layer.effect(Chain.Chain, TronNodeChain.make(node)).pipe(Layer.provide(http)))),
    Layer.succeed(Energy.EnergyProvider, Energy.noEnergyProvider())
  )
  const storage = Layer.mergeAll(
    claimTally.pipe(Layer.provide(instrumented(Sweeps.SweepRepository, "repository")), Layer.provide(PgSweepRepository.layer)),
    instrumented(Settings.SettingsRepository, "settings").pipe(Layer.provide(PgSettingsRepository.layer)),
    PgComponentStatus.layer,
    PgWalletRepository.layer,
    PgDelegationLedger.layer,
    PgResourceAccounts.layer
  ).pipe(Layer.provideMerge(DatabaseAtUrl(Redacted.make(url), poolSize)))
  const localSignerLayer = LocalSigner.layer.pipe(Layer.provide(AesGcmSecretBox.layer), Layer.provide(Layer.merge(MasterKeyring.layer({ current: masterKey }), NodeEntropy.layer)))
  const signerLayer = sweepToken === undefined ? localSignerLayer : Layer.succeed(Wallets.Signer, Pkcs11Signer.make(sweepToken.opened, LocalSigner.make(box)))
  const world = Layer.mergeAll(
    Sweeps.Sweeps.layer.pipe(Layer.provide(Layer.merge(Sweeps.SingleNetworkResources.layer, Sweeps.SweepSettings.layer()))),
    instrumented(Wallets.Signer, "signer").pipe(Layer.provide(signerLayer))
  ).pipe(Layer.provideMerge(nodeParts), Layer.provideMerge(storage))
  const runtime = ManagedRuntime.make(world)
  await runtime.runPromise(Effect.void)

  // One tenant on nile; the collection address is outside the tenant's wallets.
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  const tenantId = (await client.query("INSERT INTO tenants (name) VALUES ('bench-sweeps') RETURNING id::text AS id")).rows[0].id as string
  await client.query(
    `INSERT INTO apps (tenant_id, network, secret_key_id, secret_sealed, webhook_key_id, webhook_key_sealed) VALUES ($1, 'nile', 'k', $2, 'k', $2)`,
    [tenantId, randomBytes(16)]
  )
  await client.query(
    `INSERT INTO tenant_settings (tenant_id, network, collection_address, collection_updated_at, max_wallet_trx_fee, max_rental_cost, rental_allowed, automation_updated_at)
     VALUES ($1, 'nile', $2, now(), 15000000, 20000000, false, now())`,
    [tenantId, collection.address]
  )
  for (let start = 0; start < taskCount; start += 5000) {
    const part = wallets.slice(start, start + 5000)
    await client.query(
      `WITH w AS (
         INSERT INTO wallets (tenant_id, network, address, custom_id)
         SELECT $1, 'nile', a, c FROM unnest($2::text[], $3::text[]) AS x(a, c)
         RETURNING id, address)
       INSERT INTO wallet_keys (wallet_id, key_id, sealed_key)
       SELECT w.id, $4, k.b FROM w JOIN unnest($2::text[], $5::bytea[]) AS k(a, b) ON k.a = w.address`,
      [tenantId, part.map((w) => w.address), part.map((_, i) => `w-${start + i}`), masterKey.id, part.map((w) => Buffer.from(w.sealed.blob))]
    )
  }
  if (sweepToken !== undefined) {
    // Token wallets hold a label only, as KEY_STORE=pkcs11 makes them.
    await client.query(
      `UPDATE wallet_keys k SET store = 'pkcs11', key_id = NULL, sealed_key = NULL, key_label = 'bench-' || w.address
       FROM wallets w WHERE w.id = k.wallet_id AND w.tenant_id = $1`,
      [tenantId]
    )
  }
  await client.query("VACUUM ANALYZE wallets")
  await client.query("VACUUM ANALYZE wallet_keys")
  const idByAddress = new Map(
    (await client.query("SELECT id::text AS id, address FROM wallets WHERE tenant_id = $1", [tenantId])).rows.map((r) => [r.address as string, r.id as string])
  )
  const walletIds = wallets.map((w) => idByAddress.get(w.address)! as Kernel.WalletId)
  const expectedSum = wallets.reduce((sum, _, i) => sum + usdtAt(i), 0n)
  log(`set up ${taskCount} wallets (genesis accounts with ${delegatedEnergy} delegated energy; keys sealed and stored) in ${((performance.now() - setupStarted) / 1000).toFixed(1)} s`)

  // Reference: the production Signer alone, one signature after another.
  const signer = LocalSigner.make(box)
  const signingSet = wallets.slice(0, Math.min(signingKeys, wallets.length))
  const hashes = signingSet.map(() => new Uint8Array(randomBytes(32)))
  const signAll = (n: number) =>
    Effect.forEach(signingSet.slice(0, n), (w, i) => signer.sign({ address: w.address, key: Wallets.localKey(w.sealed) }, hashes[i]!))
  await Effect.runPromise(signAll(Math.min(200, signingSet.length)))
  let started = performance.now()
  const signatures = await Effect.runPromise(signAll(signingSet.length))
  const signingRate = signingSet.length / ((performance.now() - started) / 1000)
  log(`signing alone: ${signingRate.toFixed(0)} signatures/s over ${signingSet.length} wallets' sealed keys`)
  // Reference: what a node does for every broadcast transaction before it accepts it (java-tron
  // and the simulator alike): recover the signer's address from the signature. One core's worth
  // of it bounds how many sweeps a node can take, whatever the sweeper does.
  started = performance.now()
  const recovered = signatures.filter((signature, i) =>
    Option.contains(TronSignature.recoverAddress(hashes[i]!, signature), signingSet[i]!.address)).length
  const recoveryRate = signingSet.length / ((performance.now() - started) / 1000)
  if (recovered !== signingSet.length) throw new Error(`signature recovery found ${recovered} of ${signingSet.length} signers`)
  log(`signature recovery (the node's check of each broadcast): ${recoveryRate.toFixed(0)} signatures/s`)
  let token: TokenFigures | undefined
  if (tokens !== undefined) {
    token = await Effect.runPromise(measureToken(tokens.signing, tokenWallets, tokenSessions))
    log(`PKCS#11 (${token.description}): ${token.createRate.toFixed(1)} wallets/s created in the token, ${token.signRate.toFixed(0)} signatures/s sequential on first use, ${token.warmSignRate.toFixed(0)} once found, ${token.concurrentSignRate.toFixed(0)} with ${token.sessions} sessions`)
  }

  // Sweeps end to end: create every task, then the sweeper(s) until every task is terminal.
  const scope = { tenantId: tenantId as Kernel.TenantId, network: "nile" as const }
  const firstCreate = performance.now()
  let created = 0
  for (let start = 0; start < taskCount; start += createBatch) {
    const ids = walletIds.slice(start, start + createBatch)
    const batch = await runtime.runPromise(Effect.flatMap(Sweeps.Sweeps, (s) => s.create(scope, { walletIds: ids, mode: "all", amount: null }, "manual", new Date())))
    created += batch.created
  }
  const createSeconds = (performance.now() - firstCreate) / 1000
  if (created !== taskCount) throw new Error(`created ${created} of ${taskCount} tasks`)
  log(`created ${created} tasks in ${createSeconds.toFixed(1)} s (${(created / createSeconds).toFixed(0)}/s, batches of ${createBatch})`)

  const settings: Sweeps.SweeperSettings = {
    ...Sweeps.defaultSweeperSettings,
    batchSize,
    concurrency,
    idleInterval: Duration.millis(idleMs),
    // As in production (60 s of 3 s blocks): the first receipt look-up once the block the
    // transaction lands in (the next one) could be solidified (19 blocks after it).
    settleDelay: Duration.millis(20 * blockMs),
    settleInterval: Duration.millis(settleMs),
    rentalInterval: Duration.millis(settleMs)
  }
  const busy: Array<readonly [number, number]> = []
  const totals = { passes: 0, busyPasses: 0, claimed: 0, saved: 0, lost: 0, failed: 0 }
  let lastBusyEnd = 0
  const byStep = new Map<string, { steps: number; ms: number }>()
  // As Sweeper.run loops (straight on while a claim comes back full, resting otherwise), with each pass timed.
  const loop = (worker: string) =>
    Effect.gen(function*() {
      const sweeper = yield* Effect.provide(Sweeps.Sweeper, Sweeps.Sweeper.layer(settings))
      while (true) {
        const passStarted = performance.now()
        const summary: Sweeps.PassSummary = yield* sweeper.pass("nile", worker)
        const passEnded = performance.now()
        totals.passes++
        if (summary.claimed > 0) {
          // The pass's time, shared among the steps it took by how many tasks were at each.
          const tally = lastClaim.get(worker) ?? {}
          for (const [status, n] of Object.entries(tally)) {
            const entry = byStep.get(status) ?? { steps: 0, ms: 0 }
            byStep.set(status, { steps: entry.steps + n, ms: entry.ms + ((passEnded - passStarted) * n) / summary.claimed })
          }
          if (verbose) log(`  ${worker} pass: ${JSON.stringify(tally)} in ${(passEnded - passStarted).toFixed(0)} ms`)
          busy.push([passStarted, passEnded])
          lastBusyEnd = Math.max(lastBusyEnd, passEnded)
          totals.busyPasses++
          totals.claimed += summary.claimed
          totals.saved += summary.saved
          totals.lost += summary.lost
          totals.failed += summary.failed
        }
        if (summary.claimed < settings.batchSize) yield* Effect.sleep(settings.idleInterval)
      }
    })
  counter.calls = 0
  counter.byPath.clear()
  portTiming.start()
  let peakRss = 0
  // BENCH_CPU_PROF=1: a CPU profile of this process during the sweeper phase only.
  const profiler = phaseProfiler(process.env.BENCH_CPU_PROF === "1", "sweeper-phase")
  await profiler.start()
  const cpuBefore = { own: process.cpuUsage(), children: childrenCpu(sim.pid) }
  const sweepStarted = performance.now()
  const fiber = runtime.runFork(Effect.forEach(Array.from({ length: sweeperCount }, (_, i) => `bench-sweeper-${i + 1}`), loop, {
    concurrency: "unbounded",
    discard: true
  }))
  let byStatus: Record<string, number> = {}
  let lastProgress = performance.now()
  while (true) {
    await new Promise((r) => setTimeout(r, 100))
    // rss() alone: memoryUsage() walks the heap's spaces, CPU charged to our side of the ratio.
    peakRss = Math.max(peakRss, process.memoryUsage.rss())
    const poll = await runtime.runPromise(Fiber.poll(fiber))
    if (Option.isSome(poll)) throw new Error(`the sweeper stopped: ${JSON.stringify(poll.value)}`)
    const rows = (await client.query("SELECT status, count(*)::int AS n FROM sweep_tasks GROUP BY status")).rows as Array<{ status: string; n: number }>
    byStatus = Object.fromEntries(rows.map((r) => [r.status, r.n]))
    const terminal = (byStatus.succeeded ?? 0) + (byStatus.failed ?? 0) + (byStatus.cancelled ?? 0)
    if (terminal === taskCount) break
    if (performance.now() - lastProgress > 5000) {
      lastProgress = performance.now()
      log(`  ${((lastProgress - sweepStarted) / 1000).toFixed(0)} s: ${JSON.stringify(byStatus)}, ${counter.calls} node calls`)
    }
    if (performance.now() - sweepStarted > timeoutMs) throw new Error(`not done after ${timeoutMs / 1000} s: ${JSON.stringify(byStatus)}`)
  }
  await runtime.runPromise(Fiber.interrupt(fiber))
  portTiming.stop()
  const profileFile = await profiler.stop()
  if (profileFile !== undefined) log(`CPU profile of the sweeper phase: ${profileFile}`)
  const ownCpu = process.cpuUsage(cpuBefore.own)
  const childrenAfter = childrenCpu(sim.pid)
  const cpuSeconds = {
    bench: (ownCpu.user + ownCpu.system) / 1e6,
    sim: Option.isSome(cpuBefore.children) && Option.isSome(childrenAfter) ? childrenAfter.value.sim - cpuBefore.children.value.sim : NaN,
    postgres: Option.isSome(cpuBefore.children) && Option.isSome(childrenAfter) ? childrenAfter.value.rest - cpuBefore.children.value.rest : NaN
  }
  const sweepCalls = counter.calls
  const callsByPath = [...counter.byPath.entries()].sort((a, b) => b[1] - a[1])
  const wallSeconds = (lastBusyEnd - firstCreate) / 1000
  const sweeperSeconds = (lastBusyEnd - sweepStarted) / 1000
  const busySeconds = unionLength(busy) / 1000

  // Checks: every task succeeded with its own transaction, each wallet sent exactly one, the sum arrived.
  const failures: Array<string> = []
  const db = (await client.query(
    `SELECT count(*) FILTER (WHERE status = 'succeeded')::int AS succeeded, count(DISTINCT txid)::int AS txids,
            count(*) FILTER (WHERE fee_source = 'resources')::int AS own_energy,
            coalesce(sum(amount) FILTER (WHERE status = 'succeeded'), 0)::text AS swept, coalesce(sum(actual_fee), 0)::text AS fees,
            count(DISTINCT wallet_id)::int AS wallets FROM sweep_tasks`
  )).rows[0]
  const events = Number((await client.query("SELECT count(*) AS n FROM events WHERE event_type = 'sweep.succeeded'")).rows[0].n)
  const collected = (await client.query("SELECT coalesce(sum(collected_usdt), 0)::text AS s FROM wallets")).rows[0].s as string
  if (db.succeeded !== taskCount) failures.push(`${db.succeeded} of ${taskCount} tasks succeeded: ${JSON.stringify(byStatus)}`)
  if (db.txids !== taskCount || db.wallets !== taskCount) failures.push(`${db.txids} distinct transactions for ${db.wallets} wallets`)
  if (db.own_energy !== taskCount) failures.push(`${db.own_energy} tasks paid with own energy`)
  if (BigInt(db.swept) !== expectedSum) failures.push(`tasks swept ${db.swept}, the wallets held ${expectedSum}`)
  if (db.fees !== "0") failures.push(`tasks report ${db.fees} SUN of fees`)
  if (events !== taskCount) failures.push(`${events} sweep.succeeded events`)
  if (BigInt(collected) !== expectedSum) failures.push(`wallets' collected_usdt adds up to ${collected}`)
  const chainReport = await sim.report()
  if (chainReport.walletsSentOne !== taskCount) {
    failures.push(`on chain: ${chainReport.walletsSentOne} wallets sent one transaction, ${chainReport.walletsSentNone} none, ${chainReport.walletsSentMore} more`)
  }
  if (chainReport.otherSenders !== 0) failures.push(`${chainReport.otherSenders} transactions from addresses outside the tenant's wallets`)
  if (chainReport.notSuccess !== 0) failures.push(`${chainReport.notSuccess} of the wallets' transactions did not succeed`)
  if (chainReport.burned !== "0") failures.push(`${chainReport.burned} SUN burned by the wallets`)
  if (BigInt(chainReport.collectionSolidified) !== collectionUsdt + expectedSum) {
    failures.push(`collection address holds ${chainReport.collectionSolidified} at the solidified block, expected ${collectionUsdt + expectedSum}`)
  }
  if (chainReport.leftOnWallets !== "0") failures.push(`${chainReport.leftOnWallets} USDT units left on the wallets`)
  // The same balance through the production adapter (these calls are not counted above).
  const viaAdapter = await runtime.runPromise(Effect.flatMap(Chain.Chain, (chain) => chain.account(collection.address)))
  if (viaAdapter.usdt !== collectionUsdt + expectedSum) failures.push(`the adapter reads ${viaAdapter.usdt} USDT on the collection address`)

  // The fair reference: the same transfers, hand-written, on the same node, after ours.
  let reference: ReferenceResult | undefined
  let referenceCpu = { bench: NaN, sim: NaN }
  let referenceExpected = 0n
  let referenceProfileFile: string | undefined
  if (referenceCount > 0) {
    log(`fair reference: sweeping ${referenceCount} wallets by hand (no Effect) on the same simulator...`)
    const referenceWallets = Array.from({ length: referenceCount }, (_, i) => {
      const w = wallet(referenceKeyBase + i)
      referenceExpected += usdtAt(i)
      return { address: w.address, secretKey: w.secretKey }
    })
    const referenceProfiler = phaseProfiler(process.env.BENCH_CPU_PROF === "1", "reference-phase")
    await referenceProfiler.start()
    const referenceCpuBefore = { own: process.cpuUsage(), children: childrenCpu(sim.pid) }
    reference = await runReferenceSweeper({
      url: sim.url,
      usdtContract: node.usdtContract,
      collection: collection.address,
      wallets: referenceWallets,
      concurrency,
      batchSize,
      validityMs: Duration.toMillis(settings.transactionValidity),
      // 100,000 energy at the nile simulator's price is far below this; nothing burns (checked).
      feeLimit: 100_000_000n,
      blockMs
    })
    const referenceOwn = process.cpuUsage(referenceCpuBefore.own)
    referenceProfileFile = await referenceProfiler.stop()
    const referenceChildren = childrenCpu(sim.pid)
    referenceCpu = {
      bench: (referenceOwn.user + referenceOwn.system) / 1e6,
      sim: Option.isSome(referenceCpuBefore.children) && Option.isSome(referenceChildren)
        ? referenceChildren.value.sim - referenceCpuBefore.children.value.sim
        : NaN
    }
    const after = await sim.report()
    for (const failure of reference.failures.slice(0, 5)) failures.push(`reference: ${failure}`)
    if (reference.settled !== referenceCount) failures.push(`reference: ${reference.settled} of ${referenceCount} transfers settled`)
    if (reference.swept !== referenceExpected) failures.push(`reference swept ${reference.swept}, its wallets held ${referenceExpected}`)
    if (after.referenceSentOne !== referenceCount) failures.push(`reference: ${after.referenceSentOne} wallets sent exactly one transaction`)
    if (after.referenceLeft !== "0") failures.push(`reference: ${after.referenceLeft} USDT units left on its wallets`)
    if (after.referenceBurned !== "0") failures.push(`reference: ${after.referenceBurned} SUN burned`)
    if (BigInt(after.collectionSolidified) !== collectionUsdt + expectedSum + referenceExpected) {
      failures.push(`after the reference the collection address holds ${after.collectionSolidified}, expected ${collectionUsdt + expectedSum + referenceExpected}`)
    }
  }

  sim.stop()
  await client.end()
  await runtime.dispose()
  await Effect.runPromise(Scope.close(tokenScope, Exit.void))
  sweepToken?.remove()
  await Effect.runPromise(Scope.close(databaseScope, Exit.void))

  const f = (x: number, digits = 0) => x.toFixed(digits)
  const sweepRate = taskCount / wallSeconds
  const busyRate = taskCount / busySeconds
  log(`\nmachine: ${machine}`)
  log(`key store of the sweeps: ${keyStore}${sweepToken === undefined ? "" : ` (${sweepToken.opened.description}, ${tokenSessions} sessions)`}`)
  log(
    `run: ${taskCount} tasks, ${sweeperCount} sweeper(s), batchSize ${batchSize}, concurrency ${concurrency}, settle/rental interval ${settleMs} ms, ` +
      `idle ${idleMs} ms; a block every ${blockMs} ms (chain time = wall time; solidified 19 blocks behind); node client ${httpClient}; ` +
      `simulator, PostgreSQL and the benchmark share the machine; peak RSS of the benchmark process ${f(peakRss / 2 ** 20)} MiB\n`
  )
  log("| measure | figure | tasks/s or signatures/s | vs signing |")
  log("|---|---:|---:|---:|")
  log(`| signing alone (LocalSigner: open, check, sign, zero; ${signingSet.length} keys, sequential) | ${signingSet.length} signatures | ${f(signingRate)} | 100% |`)
  log(`| signature recovery alone (a node's check of each broadcast; same signatures, sequential) | ${signingSet.length} signatures | ${f(recoveryRate)} | ${f((recoveryRate / signingRate) * 100, 1)}% |`)
  if (token !== undefined) {
    log(`| signing in the PKCS#11 token (SoftHSM2, CKM_ECDSA, low S and recovery id; ${token.wallets} keys, sequential, first use) | ${token.wallets} signatures | ${f(token.signRate)} | ${f((token.signRate / signingRate) * 100, 1)}% |`)
    log(`| signing in the PKCS#11 token (sequential, keys found) | ${token.wallets} signatures | ${f(token.warmSignRate)} | ${f((token.warmSignRate / signingRate) * 100, 1)}% |`)
    log(`| signing in the PKCS#11 token (${token.sessions} sessions at once, keys found) | ${token.wallets} signatures | ${f(token.concurrentSignRate)} | ${f((token.concurrentSignRate / signingRate) * 100, 1)}% |`)
    log(`| wallet creation in the token (key pair generated in SoftHSM2, sequential) | ${token.wallets} wallets | ${f(token.createRate, 1)} | |`)
  }
  log(`| create (Sweeps.create, batches of ${createBatch}) | ${f(createSeconds, 1)} s | ${f(taskCount / createSeconds)} | |`)
  log(`| first create to all succeeded (wall) | ${f(wallSeconds, 1)} s | ${f(sweepRate, 1)} | ${f((sweepRate / signingRate) * 100, 1)}% |`)
  log(`| sweeper phase (sweeper start to all succeeded) | ${f(sweeperSeconds, 1)} s | ${f(taskCount / sweeperSeconds, 1)} | ${f((taskCount / sweeperSeconds / signingRate) * 100, 1)}% |`)
  log(`| sweeper busy (passes that claimed work; excludes block waits) | ${f(busySeconds, 1)} s | ${f(busyRate, 1)} | ${f((busyRate / signingRate) * 100, 1)}% |`)
  log("")
  log(
    `sweeper: ${totals.busyPasses} passes with work of ${totals.passes}, ${totals.claimed} steps (${f(totals.claimed / taskCount, 2)} per task, ` +
      `${f((busySeconds * 1000) / totals.claimed, 2)} ms of busy time each), ${totals.lost} lost, ${totals.failed} retried`
  )
  const stepNames: Record<string, string> = { pending: "prepare", ready: "sign", signed: "broadcast", broadcast: "settle", unknown: "settle (unknown)" }
  log(
    `busy time by step (a pass's time shared by its tasks): ${[...byStep.entries()].map(([status, e]) =>
      `${stepNames[status] ?? status} ${f(e.ms / 1000, 1)} s for ${e.steps} steps (${f(e.ms / e.steps, 2)} ms each)`).join(", ")}`
  )
  log(
    `summed latency of the port calls (up to ${concurrency} in flight, so they overlap): ${portTiming.summary()}`
  )
  log(
    `CPU during the sweeper phase (${f(sweeperSeconds, 1)} s wall, ${cpus().length} cores): benchmark process ${f(cpuSeconds.bench, 1)} s, ` +
      `simulator ${f(cpuSeconds.sim, 1)} s, PostgreSQL ${process.env.DATABASE_URL === undefined ? `${f(cpuSeconds.postgres, 1)} s` : "not measured (DATABASE_URL)"}; ` +
      `benchmark process ${f((cpuSeconds.bench * 1000) / totals.claimed, 2)} ms per step, ${f((cpuSeconds.bench * 1000) / taskCount, 1)} ms per task`
  )
  log(`node calls: ${sweepCalls} (${f(sweepCalls / taskCount, 2)} per task): ${callsByPath.map(([p, n]) => `${p} ${f(n / taskCount, 2)}`).join(", ")}`)
  log(
    `chain: head ${chainReport.head}, solidified ${chainReport.solidified}; ${chainReport.walletsSentOne} wallets sent exactly one transaction, ` +
      `${chainReport.burned} SUN burned, ${chainReport.pending} left in the pool; collection address ${chainReport.collectionSolidified} USDT units (${collectionUsdt} before + ${expectedSum} swept)`
  )
  log(`goal: sweeper busy rate at least half the signing rate: ${busyRate >= signingRate / 2 ? "met" : "not met"} (${f((busyRate / signingRate) * 100, 1)}%)`)
  // At half the signing rate, the two signature operations a task needs (the sweeper's signature
  // and the node's recovery of it) take this share of the machine, and the rest of each task's
  // work (node calls on both sides, statements, the database) must fit in what is left.
  const half = signingRate / 2
  const cryptoCores = half / signingRate + half / recoveryRate
  const cpuPerTask = ((cpuSeconds.bench + cpuSeconds.sim + cpuSeconds.postgres) * 1000) / taskCount
  const signatureMs = 1000 / signingRate + 1000 / recoveryRate
  log(
    `what the goal leaves for the rest: at ${f(half)} tasks/s the signature and its recovery by the node alone take ${f(cryptoCores, 2)} of ` +
      `${cpus().length} cores, leaving ${f(((cpus().length - cryptoCores) * 1000) / half, 2)} ms of CPU per task for everything else; ` +
      `measured in this run: ${f(cpuPerTask - signatureMs, 1)} ms per task besides the two signature operations (benchmark process, simulator and PostgreSQL)`
  )
  if (reference !== undefined) {
    const referenceRate = reference.settled / reference.busySeconds
    log(
      `\nfair reference (bench/support/ReferenceSweeper.ts, no Effect): ${reference.settled} transfers settled in ${f(reference.busySeconds, 1)} s ` +
        `(send ${f(reference.sendSeconds, 1)} s + receipts ${f(reference.receiptSeconds, 2)} s; block waits of ${f(reference.waitSeconds, 1)} s excluded): ` +
        `${f(referenceRate, 1)} transfers/s, ${f((referenceRate / signingRate) * 100, 1)}% of the signing rate`
    )
    log(
      `reference node calls: ${reference.calls} (${f(reference.calls / referenceCount, 2)} per transfer): ` +
        `${[...reference.callsByPath.entries()].sort((a, b) => b[1] - a[1]).map(([p, n]) => `${p} ${f(n / referenceCount, 3)}`).join(", ")}`
    )
    log(
      `reference CPU (its whole run, the block wait included): benchmark process ${f(referenceCpu.bench, 1)} s (${f((referenceCpu.bench * 1000) / referenceCount, 2)} ms per transfer), ` +
        `simulator ${f(referenceCpu.sim, 1)} s (${f((referenceCpu.sim * 1000) / referenceCount, 2)} ms per transfer); ours per task: ` +
        `benchmark process ${f((cpuSeconds.bench * 1000) / taskCount, 2)} ms, simulator ${f((cpuSeconds.sim * 1000) / taskCount, 2)} ms`
    )
    if (profileFile !== undefined && referenceProfileFile !== undefined) {
      // Both phases profiled whole: ours includes the block waits' idle passes, the reference its
      // wait for solidification (idle time is left out of both).
      printPhaseBreakdown("sweeps, ours (sweeper phase) and the fair reference (its run)", { file: profileFile, requests: taskCount }, {
        file: referenceProfileFile,
        requests: referenceCount
      })
    }
    log(`RATIO sweeps ${f(busyRate, 1)}/${f(referenceRate, 1)} = ${f((busyRate / referenceRate) * 100, 1)}%`)
  }
  if (failures.length > 0) {
    console.error(`\nCHECKS FAILED:\n- ${failures.join("\n- ")}`)
    process.exitCode = 1
  } else log("checks: all passed")
}

if (process.env.BENCH_SWEEPS_ROLE === "sim") {
  runSimulator().catch((error) => {
    console.error(error)
    process.exit(1)
  })
} else if (keyStore === "both") {
  runBothKeyStores(fileURLToPath(import.meta.url)).then((code) => process.exit(code), (error) => {
    console.error(error)
    process.exit(1)
  })
} else {
  main()
    .catch((error) => {
      console.error(error)
      process.exitCode = 1
    })
    .finally(() => process.exit())
}
