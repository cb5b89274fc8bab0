/**
 * Fees per sweep by policy (issue 32): the same sweeps on a fresh simulated chain at mainnet
 * prices (100 SUN per energy) under four policies, through the real sweeper (memory storage) and
 * the engine's fee booking pass; one line per policy from the fee ledger's totals:
 * `FEES <policy> avg <trx> TRX/sweep saving <pct>%`. Run with `npm run bench:fees`
 * (BENCH_FEES_SWEEPS, default 300).
 *
 * - burn: no rental, no resource account: each wallet burns its own TRX.
 * - one-provider: rental from `sim` alone, 90 SUN per energy (a single CatFee-like provider).
 * - ranked-providers: `sim` at 90 and `sim-b` at 80, ranked; `sim-b` refuses some orders and loses
 *   the answer of others, so the ranking fails over to `sim`.
 * - own-stake: a resource account with 3,000,000 TRX staked lends the energy, reclaimed after.
 *
 * The first sweep runs alone (the collection address is empty: 130,285 energy), then the rest
 * together (64,285 each). Reference, in the same run: every policy's cost read from the chain (fees
 * on the wallets' receipts) and the providers' order books, and the burn-equivalent from a hand
 * table; `CHECK <policy> ...` lines; the exit code is 1 when the ledger disagrees with them, a sweep
 * is not `succeeded`, or (own-stake) a delegation is left on the chain.
 */
import { Chain, Delegation, Energy, Fees, type Kernel, Memory, Secrets, Settings, Sweeps, Tenants, Wallets } from "@collector/core"
import { eagerSweeperSettings } from "@collector/core/test-doubles"
import { SimEnergyProvider } from "@collector/energy"
import { LocalSigner } from "@collector/tron"
import { defaultParameters, defaultSimConfig, SimHttp } from "@collector/tron-sim"
import { adapterFor, wallet } from "@collector/tron-sim/testing"
import { AesGcmSecretBox, MasterKey, MasterKeyring, NodeEntropy } from "@collector/vault"
import { FetchHttpClient } from "@effect/platform"
import { Duration, Effect, Layer, Logger, LogLevel, Option } from "effect"
import { feeChainReference } from "./support/FeeChainReference.js"

const sweeps = Number(process.env.BENCH_FEES_SWEEPS ?? 300)
const policies = ["burn", "one-provider", "ranked-providers", "own-stake"] as const
type Policy = (typeof policies)[number]

const energyFee = 100n
const firstTransfer = 130_285n
const laterTransfer = 64_285n
/** Hand table: what burning every sweep's energy costs at 100 SUN (the first to an empty address). */
const tableBurnEquivalent = (n: number) => (firstTransfer + BigInt(n - 1) * laterTransfer) * energyFee
const dearPrice = 90n
const cheapPrice = 80n
/** Faults armed at the cheaper provider in `ranked-providers`: refusals and lost answers. */
const cheapRefusals = 12
const cheapLostAnswers = 4

const walletKey = (i: number) => 0x300000 + i
const collectionKey = 0x2fffff
const resourceKey = 0x2ffffe
const usdtAt = (i: number) => BigInt(1 + (i % 500)) * 1_000_000n + BigInt(i)
const walletTrx = 20_000_000n
const resourceStake = 3_000_000_000_000n

const masterKey = MasterKey.unsafeMake(Buffer.alloc(32, 7))
const box = AesGcmSecretBox.make(MasterKeyring.make({ current: masterKey }), NodeEntropy.make)
const signer = LocalSigner.layer.pipe(
  Layer.provide(AesGcmSecretBox.layer),
  Layer.provide(Layer.merge(MasterKeyring.layer({ current: masterKey }), NodeEntropy.layer))
)

const sunAsTrx = (sun: bigint) => {
  // Rounded to the nearest thousandth of a TRX (1,000 SUN).
  const thousandths = (sun + 500n) / 1_000n
  return `${thousandths / 1_000n}.${(thousandths % 1_000n).toString().padStart(3, "0")}`
}

const terminal = (status: string) => status === "succeeded" || status === "failed" || status === "cancelled"

const runPolicy = (policy: Policy) =>
  Effect.gen(function*() {
    const addresses = Array.from({ length: sweeps }, (_, i) => wallet(walletKey(i)).address)
    const resource = wallet(resourceKey)
    const sim = yield* SimHttp.start({
      chain: defaultSimConfig("nile", {
        parameters: { ...defaultParameters, energyFee },
        genesisAccounts: [
          ...addresses.map((address, i) => ({ address, trx: walletTrx, usdt: usdtAt(i) })),
          ...(policy === "own-stake" ? [{ address: resource.address, trx: 1_000_000_000n, stakedForEnergy: resourceStake }] : [])
        ]
      }),
      blocks: "manual",
      provider: { pricePerEnergy: dearPrice },
      secondProvider: { pricePerEnergy: cheapPrice }
    }).pipe(Effect.orDie)
    const adapter = (name: "sim" | "sim-b") =>
      SimEnergyProvider.make(SimEnergyProvider.defaultSimProviderConfig(sim.url, { requestTimeout: Duration.seconds(2), name })).pipe(
        Effect.provide(FetchHttpClient.layer)
      )
    const provider: Energy.EnergyProviderService = policy === "one-provider"
      ? yield* adapter("sim")
      : policy === "ranked-providers"
      ? yield* Energy.rankedEnergyProviders([yield* adapter("sim"), yield* adapter("sim-b")], { answerTimeout: Duration.seconds(2), coolDown: Duration.millis(500) })
      : Energy.noEnergyProvider()
    if (policy === "ranked-providers") {
      yield* sim.secondProvider.arm({ kind: "reject", reason: "no energy available" }, cheapRefusals)
      yield* sim.secondProvider.arm({ kind: "unknown", lost: { mode: "504", holdMs: 0 } }, cheapLostAnswers)
    }
    const chain = yield* adapterFor(sim.url, { requestsPerSecond: 10_000 })
    const world = Layer.mergeAll(Layer.succeed(Chain.Chain, chain), Layer.succeed(Energy.EnergyProvider, provider), signer).pipe(Layer.provideMerge(Memory.MemoryStorage))

    return yield* Effect.gen(function*() {
      const appKey = yield* box.seal(new Uint8Array(32), Secrets.walletKeyContext("bench-fees"))
      const tenant = yield* (yield* Tenants.TenantRepository).create(`bench-fees-${policy}`, [
        { network: "nile", secret: appKey, webhookKey: appKey, confirmationRule: Settings.defaultConfirmationRule }
      ]).pipe(Effect.orDie)
      const scope: Tenants.TenantScope = { tenantId: tenant.id, network: "nile" }
      const walletRepo = yield* Wallets.WalletRepository
      const rentalAllowed = policy === "one-provider" || policy === "ranked-providers"
      // The rental policies never burn the wallets' TRX (max_wallet_trx_fee 0): the waterfall burns
      // before it rents, and these wallets hold TRX for the burn policy.
      const maxWalletTrxFee = rentalAllowed ? 0n : Settings.defaultAutomationPolicy.maxWalletTrxFee
      yield* (yield* Settings.SettingsRepository).setAutomation(scope, { ...Settings.defaultAutomationPolicy, rentalAllowed, maxWalletTrxFee })
      if (policy === "own-stake") {
        const sealed = yield* box.seal(resource.secretKey, Secrets.walletKeyContext(resource.address))
        yield* (yield* Delegation.ResourceAccounts).create({ network: "nile", tenantId: scope.tenantId, address: resource.address, key: Wallets.localKey(sealed), createdAt: new Date() }).pipe(Effect.orDie)
      }
      const wallets: Array<{ readonly id: Kernel.WalletId; readonly address: string }> = []
      for (let i = 0; i < sweeps; i++) {
        const key = wallet(walletKey(i))
        const sealed = yield* box.seal(key.secretKey, Secrets.walletKeyContext(key.address))
        const stored = yield* walletRepo.insert(scope, { customId: `w${i}`, address: key.address, key: Wallets.localKey(sealed) }).pipe(Effect.orDie)
        wallets.push({ id: stored.id, address: key.address })
      }
      const destination = wallet(collectionKey).address
      const repo = yield* Sweeps.SweepRepository
      const create = (indexes: ReadonlyArray<number>) =>
        Effect.gen(function*() {
          const now = new Date()
          const drafts = indexes.map((i) => wallets[i]!).map((w) => ({
            walletId: w.id,
            address: w.address,
            mode: "all" as const,
            requestedAmount: null,
            minimumAmount: null,
            destination,
            origin: "manual" as const,
            maxWalletTrxFee,
            prepareBy: new Date(now.getTime() + 86_400_000)
          }))
          return (yield* repo.insert(scope, drafts, now)).map((t) => t.id)
        })
      const sweeper = yield* Effect.provide(Sweeps.Sweeper, Sweeps.Sweeper.layer(eagerSweeperSettings))
      const reclaim = yield* Effect.provide(Delegation.ReclaimLoop, Delegation.ReclaimLoop.layer())
      const refusedReclaims = new Set<string>()
      const reclaimPass = Effect.tap(reclaim.pass("nile"), (outcomes) =>
        Effect.sync(() => {
          for (const o of outcomes) if (o._tag === "Pending" && o.reason.includes("refused")) refusedReclaims.add(o.reason)
        }))
      const runUntilDone = (ids: ReadonlyArray<Sweeps.SweepTaskId>, limit: number) =>
        Effect.gen(function*() {
          for (let round = 0; round < limit; round++) {
            yield* sweeper.pass("nile", "bench")
            yield* Fees.bookFees("nile", 1000)
            if (policy === "own-stake") yield* reclaimPass
            const statuses = yield* Effect.forEach(ids, (id) => Effect.map(repo.find(scope, id), (v) => Option.getOrThrow(v).task.status))
            if (statuses.every(terminal)) return
            yield* sim.chain.mine(1)
          }
        })
      const statusOf = (id: Sweeps.SweepTaskId) => Effect.map(repo.find(scope, id), (v) => Option.getOrThrow(v).task)
      // A refused rental fails its task and automation sweeps the wallet again in its next round
      // (docs/fees.md): so does the bench, up to 5 times, in place of the failed task.
      let retried = 0
      const sweepAll = (indexes: ReadonlyArray<number>) =>
        Effect.gen(function*() {
          const ids = yield* create(indexes)
          yield* runUntilDone(ids, 400)
          for (let attempt = 0; attempt < 5; attempt++) {
            const tasks = yield* Effect.forEach(ids, statusOf)
            const failed = tasks.flatMap((t, k) => (t.status === "failed" ? [k] : []))
            if (failed.length === 0) break
            retried += failed.length
            const again = yield* create(failed.map((k) => indexes[k]!))
            failed.forEach((k, j) => (ids[k] = again[j]!))
            yield* runUntilDone(ids, 400)
          }
          return ids
        })
      const ids = [...yield* sweepAll([0]), ...yield* sweepAll(Array.from({ length: sweeps - 1 }, (_, i) => i + 1))]
      // Settled tasks left to book and stake left to take back: more passes and blocks, as the
      // engine's loops would run them (the reclaim waits for each reclaim to land).
      for (let round = 0; round < 100; round++) {
        yield* Fees.bookFees("nile", 1000)
        if (policy === "own-stake") yield* reclaimPass
        if (policy !== "own-stake" && round >= 25) break
        yield* sim.chain.mine(1)
      }
      const tasks = yield* Effect.forEach(ids, statusOf)
      const notSucceeded = tasks.filter((t) => t.status !== "succeeded")
      const totals = yield* (yield* Fees.FeeLedger).totals(scope, { since: new Date(0) })
      const lentLeft = policy === "own-stake"
        ? (yield* Effect.forEach(addresses, (receiver) => chain.lentEnergyStake({ owner: resource.address, receiver }))).reduce((a, b) => a + b, 0n)
        : 0n
      const delegationStates: Record<string, number> = {}
      for (const id of ids) {
        const row = yield* (yield* Delegation.DelegationLedger).find(id)
        const state = Option.match(row, { onNone: () => "none", onSome: (d) => d.state })
        delegationStates[state] = (delegationStates[state] ?? 0) + 1
      }
      const reference = yield* feeChainReference(sim.chain, addresses, { sim: sim.provider, "sim-b": sim.secondProvider }, policy === "own-stake" ? [resource.address] : [])
      const paths: Record<string, number> = {}
      for (const t of tasks) paths[t.energyPath ?? "none"] = (paths[t.energyPath ?? "none"] ?? 0) + 1
      return { policy, totals, notSucceeded, lentLeft, reference, paths, retried, delegationStates, refusedReclaims }
    }).pipe(Effect.provide(world))
  }).pipe(Effect.scoped)

const main = Effect.gen(function*() {
  const failures: Array<string> = []
  const lines: Array<string> = []
  const checks: Array<string> = []
  const table = tableBurnEquivalent(sweeps)
  for (const policy of policies) {
    const started = Date.now()
    // The ranked providers log each rest; the order books below count the failover instead.
    const r = yield* runPolicy(policy).pipe(Logger.withMinimumLogLevel(LogLevel.Error))
    const t = r.totals
    const ledgerPaid = t.networkEnergyFee + t.networkBandwidthFee + t.providerEnergyCost + t.providerActivationCost + t.lendingFee
    const chainPaid = r.reference.burned + r.reference.providerCost + r.reference.lendingBurned
    lines.push(`FEES ${policy} avg ${sunAsTrx(ledgerPaid / BigInt(sweeps))} TRX/sweep saving ${Fees.savingPercent(t) ?? "0.00"}%`)
    checks.push(
      `CHECK ${policy} ledger ${ledgerPaid} chain ${chainPaid} SUN (receipts ${r.reference.burned}, provider books ${r.reference.providerCost}, ` +
        `resource account's ${r.reference.lendingTransactions} receipts ${r.reference.lendingBurned}); ` +
        `burn-equivalent ledger ${t.burnEquivalent} table ${table}; energy used ledger ${t.energy.own + t.energy.delegated + t.energy.rented + t.energy.burned} chain ${r.reference.energyUsed}`
    )
    console.log(
      `${policy}: ${((Date.now() - started) / 1000).toFixed(1)} s, ${t.entries} entries, ${r.reference.sweepTransactions} sweep transactions, energy paths ${JSON.stringify(r.paths)}, ` +
        `energy own ${t.energy.own} delegated ${t.energy.delegated} rented ${t.energy.rented} burned ${t.energy.burned}, orders ${JSON.stringify(r.reference.ordersByProvider)}, sweeps made again after a refusal ${r.retried}` +
        (policy === "own-stake" ? `, stake still lent ${r.lentLeft} SUN, delegations ${JSON.stringify(r.delegationStates)}` : "")
    )
    if (ledgerPaid !== chainPaid) failures.push(`${policy}: the ledger's TRX paid ${ledgerPaid} SUN differs from the chain's ${chainPaid} SUN`)
    if (t.burnEquivalent !== table) failures.push(`${policy}: the ledger's burn-equivalent ${t.burnEquivalent} SUN differs from the table's ${table} SUN`)
    if (t.saving !== t.burnEquivalent - ledgerPaid) failures.push(`${policy}: the ledger's saving ${t.saving} is not its burn-equivalent less what was paid`)
    if (policy === "burn" && chainPaid !== table) failures.push(`burn: the chain's fees ${chainPaid} SUN differ from the table's ${table} SUN`)
    if (t.entries !== sweeps) failures.push(`${policy}: ${t.entries} ledger entries for ${sweeps} sweeps`)
    if (r.notSucceeded.length > 0) {
      failures.push(`${policy}: ${r.notSucceeded.length} sweeps not succeeded, e.g. ${r.notSucceeded[0]!.status}/${r.notSucceeded[0]!.stage}: ${r.notSucceeded[0]!.reason}`)
    }
    for (const reason of [...r.refusedReclaims].slice(0, 3)) console.log(`  ${policy}: ${reason}`)
    if (r.lentLeft !== 0n) failures.push(`${policy}: ${r.lentLeft} SUN of stake still delegated to the wallets`)
  }
  console.log(`${sweeps} sweeps per policy, energy fee ${energyFee} SUN, providers sim ${dearPrice} SUN and sim-b ${cheapPrice} SUN per energy`)
  for (const line of [...lines, ...checks]) console.log(line)
  if (failures.length > 0) {
    for (const f of failures) console.error(`FAIL ${f}`)
    process.exitCode = 1
  }
})

Effect.runPromise(main).catch((e) => {
  console.error(e)
  process.exitCode = 1
})
