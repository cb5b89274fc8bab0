import { Delegation, Engine, type Kernel, Secrets, Settings, Sweeps, type Tenants, Wallets } from "@collector/core"
import { eagerSweeperSettings, MemoryTestStorage, StorageFixtures, sweepDraftFor } from "@collector/core/testing"
import { LocalSigner } from "@collector/tron"
import { sentBy, type startSimNode, wallet } from "@collector/tron-sim/testing"
import { AesGcmSecretBox, MasterKey, MasterKeyring, NodeEntropy } from "@collector/vault"
import { Clock, Effect, Layer, Option } from "effect"
import { Sim, SimWorld, simWorldWith } from "../../chain/testing/SimWorld.js"

/*
 * Test support of the sweeper's tests here (never exported): the real sweeper and its steps
 * over a storage, the simulated node through the real adapter, and the local signer under a
 * test master key.
 */

/** The storage the sweeper runs on: every port over one memory database, with the fixtures. */
const storage = MemoryTestStorage

const masterKey = MasterKey.unsafeMake(Buffer.alloc(32, 7))
const box = AesGcmSecretBox.make(MasterKeyring.make({ current: masterKey }), NodeEntropy.make)
const signer = LocalSigner.layer.pipe(
  Layer.provide(AesGcmSecretBox.layer),
  Layer.provide(Layer.merge(MasterKeyring.layer({ current: masterKey }), NodeEntropy.layer))
)

export const SweepWorld = SimWorld.pipe(Layer.provideMerge(signer), Layer.provideMerge(storage))

/** The sweep world over a simulator whose genesis accounts are `overrides`' (resource accounts with staked TRX). */
export const sweepWorldWith = (overrides: Parameters<typeof startSimNode>[0]) =>
  Layer.unwrapScoped(simWorldWith(overrides)).pipe(Layer.provideMerge(signer), Layer.provideMerge(storage))

/** Seals a simulator key as the resource account's is stored (like a wallet key) and sets it for the tenant on nile. */
export const setResourceAccount = (scope: Tenants.TenantScope, index: number) =>
  Effect.gen(function*() {
    const key = wallet(index)
    const sealed = yield* box.seal(key.secretKey, Secrets.walletKeyContext(key.address))
    const now = new Date(yield* Clock.currentTimeMillis)
    return yield* Effect.flatMap(Delegation.ResourceAccounts, (accounts) =>
      accounts.create({ network: "nile", tenantId: scope.tenantId, address: key.address, key: Wallets.localKey(sealed), createdAt: now })).pipe(Effect.orDie)
  })

export const usdt = (whole: bigint) => whole * 1_000_000n
export const trx = (whole: bigint) => whole * 1_000_000n

export interface SweepWallet {
  readonly id: Kernel.WalletId
  readonly address: string
  /** The simulator key behind the address. */
  readonly index: number
}

export interface SweepScope extends Tenants.TenantScope {
  readonly wallets: ReadonlyArray<SweepWallet>
  /** The collection address: an address the chain has never seen. */
  readonly destination: string
}

// Simulator keys: every wallet and destination of a file's simulator a new one, the same in every run.
let nextKey = 7000

/** A tenant on nile with `count` wallets holding real keys sealed under the test master key, its policy, and a new collection address. */
export const seedScope = (count: number, policy: { readonly rentalAllowed: boolean }) =>
  Effect.gen(function*() {
    const fixtures = yield* StorageFixtures
    const scope = yield* fixtures.scope("nile")
    yield* Effect.flatMap(Settings.SettingsRepository, (settings) =>
      settings.setAutomation(scope, { ...Settings.defaultAutomationPolicy, rentalAllowed: policy.rentalAllowed }))
    const wallets: Array<SweepWallet> = []
    for (let i = 0; i < count; i++) {
      const index = nextKey++
      const key = wallet(index)
      const sealed = yield* box.seal(key.secretKey, Secrets.walletKeyContext(key.address))
      const stored = yield* fixtures.wallet(scope, { address: key.address, key: Wallets.localKey(sealed) })
      wallets.push({ id: stored.id, address: key.address, index })
    }
    return { ...scope, wallets, destination: wallet(nextKey++).address } satisfies SweepScope
  })

/** A task as the create operation makes it (all, or a fixed amount), due now. */
export const createTask = (scope: SweepScope, w: SweepWallet, amount: bigint | null = null) =>
  Effect.gen(function*() {
    const repo = yield* Sweeps.SweepRepository
    const now = new Date(yield* Clock.currentTimeMillis)
    const [task] = yield* repo.insert(scope, [sweepDraftFor(w, {
      mode: amount === null ? "all" : "fixed",
      requestedAmount: amount,
      destination: scope.destination,
      prepareBy: new Date(now.getTime() + 86_400_000)
    })], now)
    return task!
  })

export const taskOf = (scope: Tenants.TenantScope, id: Sweeps.SweepTaskId) =>
  Effect.flatMap(Sweeps.SweepRepository, (repo) => repo.find(scope, id)).pipe(Effect.map((view) => Option.getOrThrow(view)))

/** One pass of a new sweeper of `worker`. */
export const pass = (worker = "w1", settings: Sweeps.SweeperSettings = eagerSweeperSettings, checkpoint?: Engine.Checkpoint) =>
  Effect.flatMap(Effect.provide(Sweeps.Sweeper, Sweeps.Sweeper.layer(settings, checkpoint)), (sweeper) => sweeper.pass("nile", worker))

const terminal = (task: Sweeps.SweepTask) => task.status === "succeeded" || task.status === "failed" || task.status === "cancelled"

/**
 * Rounds of one `step` (a pass) and one block until the task is terminal (or `limit` rounds), so
 * a broadcast lands and solidifies as on a real chain; with every state the task went through.
 */
export const roundsUntilDone = <E, R>(step: Effect.Effect<unknown, E, R>) => (scope: Tenants.TenantScope, id: Sweeps.SweepTaskId, limit = 60) =>
  Effect.gen(function*() {
    const sim = yield* Sim
    const seen: Array<string> = []
    for (let round = 0; round < limit; round++) {
      yield* step
      const { task } = yield* taskOf(scope, id)
      const state = `${task.status}/${task.stage}`
      if (seen[seen.length - 1] !== state) seen.push(state)
      if (terminal(task)) break
      yield* sim.chain.mine(1)
    }
    return { ...(yield* taskOf(scope, id)), seen }
  })

export const runUntilDone = roundsUntilDone(pass())

/** The transactions the wallet's key signed that are on the chain now, in block order. */
export const sentFrom = (address: string) => Effect.flatMap(Sim, (sim) => sentBy(sim.chain, address))

/** The rental orders the simulated provider took for `address`. */
export const ordersFor = (address: string) =>
  Effect.flatMap(Sim, (sim) => Effect.map(sim.provider.orders, (orders) => orders.filter((o) => o.order.receiver === address)))

export const sweeperReport = Effect.flatMap(Engine.ComponentStatus, (status) =>
  Effect.map(status.list("nile"), (reports) => reports.find((r) => r.component === "sweeper")))
