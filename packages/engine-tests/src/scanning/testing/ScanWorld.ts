import { wallet } from "@collector/tron-sim/testing"
import { type Kernel, Notifications, Scanning, type Settings, type Tenants } from "@collector/core"
import { eagerScannerLoopSettings, MemoryTestStorage, StorageFixtures } from "@collector/core/testing"
import { Effect, Layer, Option } from "effect"
import { Sim, SimWorld } from "../../chain/testing/SimWorld.js"

/*
 * Test support of the scanner's tests here (never exported): the real scanner loop with its
 * scanner, confirmations and integrity check over a storage, and the simulated node through the
 * real adapter.
 */

/** The storage the scanner runs on: every port over one memory database, with the fixtures. */
const storage = MemoryTestStorage

const fetchConcurrency = 4

/** The scanner's world with the network's deposit minimum set to `depositMinimum`. */
export const scanWorldWith = (depositMinimum: bigint) =>
  Scanning.ScannerLoop.layer(eagerScannerLoopSettings).pipe(
    Layer.provideMerge(Layer.mergeAll(
      Scanning.Scanner.layer({ batchBlocks: 10, fetchConcurrency, depositMinimum }),
      Scanning.Confirmations.layer,
      Scanning.IntegrityCheck.layer(fetchConcurrency, depositMinimum),
      Notifications.OutboxSignal.layer
    )),
    Layer.provideMerge(SimWorld),
    Layer.provideMerge(storage)
  )

export const ScanWorld = scanWorldWith(0n)

export const usdt = (whole: bigint) => whole * 1_000_000n

export interface ScanWallet {
  readonly id: Kernel.WalletId
  readonly address: string
  readonly customId: string
  /** The simulator key behind the address, to send from it. */
  readonly index: number
}

// Simulator keys: every wallet of a file's simulator a new one, the same in every run.
let nextKey = 3000

/** A new simulator address with its key, not yet a tenant wallet. */
export const newAddress = () => {
  const index = nextKey++
  return { index, address: wallet(index).address }
}

/** A tenant scope on nile under `rule` with `count` wallets at simulator addresses. */
export const seedTenant = (rule: Settings.ConfirmationRule, count = 1) =>
  Effect.gen(function*() {
    const fixtures = yield* StorageFixtures
    const scope = yield* fixtures.scope("nile", { confirmationRule: rule })
    const wallets: Array<ScanWallet> = []
    for (let i = 0; i < count; i++) wallets.push(yield* addWallet(scope))
    return { scope, wallets }
  })

/** A wallet of the scope at a new simulator address. */
export const addWallet = (scope: Tenants.TenantScope) =>
  Effect.gen(function*() {
    const { index, address } = newAddress()
    const stored = yield* Effect.flatMap(StorageFixtures, (fixtures) => fixtures.wallet(scope, { address }))
    return { ...stored, index } satisfies ScanWallet
  })

/** One scanner pass, as the worker's loop makes it while holding the lease (no periodic integrity check). */
export const pass = (network: Kernel.Network = "nile") =>
  Effect.flatMap(Scanning.ScannerLoop, (loop) => loop.pass(network))

/** The deposits of the transfers, as stored now (none for a transfer not booked). */
export const depositsAt = (logs: ReadonlyArray<{ readonly txid: string; readonly logIndex: number }>) =>
  Effect.flatMap(Scanning.DepositBook, (book) => book.depositsOf("nile", logs))

export const eventsOf = (scope: Tenants.TenantScope) => Effect.flatMap(StorageFixtures, (fixtures) => fixtures.scopeEvents(scope))

/** The stored transfers of the scope that wait for their confirmations. */
export const pendingOf = (scope: Tenants.TenantScope) =>
  Effect.map(Effect.flatMap(Scanning.DepositBook, (book) => book.pending(scope.network)), (logs) => logs.filter((l) => l.tenantId === scope.tenantId))

export const blockOf = (txid: string) =>
  Effect.flatMap(Sim, (sim) =>
    Effect.map(sim.chain.state, (state) =>
      Option.fromNullable(state.blocks.find((block) => block.transactions.some((included) => included.tx.txid === txid)))))
