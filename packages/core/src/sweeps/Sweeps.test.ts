import { describe, expect, it } from "@effect/vitest"
import { ConfigProvider, Duration, Effect, Layer, Option, Ref } from "effect"
import type { ChainService } from "../chain/Chain.js"
import { ChainRejected, ChainUnavailable } from "../chain/ChainErrors.js"
import type { AccountState, ChainParameters } from "../chain/ChainModel.js"
import { type EnergyProviderService, ProviderRejected, type RentalRequest } from "../energy/EnergyProvider.js"
import type { TenantId, WalletId } from "../kernel/Ids.js"
import type { TenantScope } from "../tenants/Scope.js"
import { type AutomationPolicy, type CollectionSetting, defaultAutomationPolicy } from "../settings/Settings.js"
import { SettingsRepository } from "../settings/SettingsRepository.js"
import type { Wallet } from "../wallets/Wallet.js"
import { WalletRepository } from "../wallets/WalletRepository.js"
import { noEnergyProvider } from "../energy/NoEnergyProvider.js"
import { MemoryDatabase } from "../memory/MemoryDatabase.js"
import * as MemoryResourceAccounts from "../delegation/MemoryResourceAccounts.js"
import { NetworkResources } from "./NetworkResources.js"
import { queuedTask } from "./QueuedTask.js"
import { type SweepDraft, SweepRepository } from "./SweepRepository.js"
import { Sweeps } from "./Sweeps.js"
import { SweepSettings, sweepSettingsConfig } from "./SweepSettings.js"
import { walletReading } from "./testing/WalletReading.js"
import type { SweepTask, SweepTaskId } from "./SweepTask.js"

/**
 * The sweep operations over in-memory ports and a scripted node and provider. The same flows
 * through the real server, PostgreSQL and the simulated node are in packages/http-server.
 */

const scope: TenantScope = { tenantId: "1" as TenantId, network: "nile" }
const at = new Date("2026-06-01T00:00:00.000Z")
const collector = "TCollectorAddressxxxxxxxxxxxxxxxxx"

const walletOf = (n: number, overrides: Partial<Wallet> = {}): Wallet => ({
  id: String(n) as WalletId,
  network: "nile",
  address: `TWallet${n}`,
  customId: `c${n}`,
  collectionStatus: "idle",
  balanceUsdt: null,
  balanceTrx: null,
  balanceBlock: 0n,
  destination: collector,
  isCollectionAddress: false,
  collectedUsdt: 0n,
  lastCollectedAt: null,
  createdAt: at,
  ...overrides
})

const taskOf = (draft: SweepDraft, id: number, now: Date): SweepTask => queuedTask(String(id) as SweepTaskId, scope, draft, now)

interface World {
  readonly wallets: ReadonlyArray<Wallet>
  readonly collection?: CollectionSetting
  readonly policy?: Partial<AutomationPolicy>
  /** Wallets the store skips, as if another request had just given them a task. */
  readonly raced?: ReadonlyArray<string>
  readonly chain?: ChainService
  readonly provider?: EnergyProviderService
}

const setCollection: CollectionSetting = { address: collector, walletId: null, updatedAt: at }

const ports = (world: World, drafts: Ref.Ref<ReadonlyArray<SweepDraft>>) => {
  const unused = () => Effect.dieMessage("not used by the operations")
  return Layer.mergeAll(
    // No resource account: the own stake never lends here.
    MemoryResourceAccounts.layer.pipe(Layer.provide(MemoryDatabase.layer)),
    Layer.succeed(WalletRepository, {
      drawId: unused(),
      insert: unused,
      find: unused,
      findByAddress: unused,
      list: unused,
      selectIds: unused,
      unavailable: unused,
      summary: unused,
      findMany: (s, ids) => Effect.succeed(s.tenantId === scope.tenantId ? world.wallets.filter((w) => ids.includes(w.id)) : [])
    }),
    Layer.succeed(SettingsRepository, {
      get: () =>
        Effect.succeed({
          collection: world.collection ?? setCollection,
          automation: { ...defaultAutomationPolicy, ...world.policy },
          webhook: { url: "", enabled: false, updatedAt: null }
        }),
      setCollection: unused,
      setAutomation: unused,
      setWebhook: unused
    }),
    Layer.succeed(SweepRepository, {
      insert: (_, batch, now) =>
        Effect.gen(function*() {
          yield* Ref.update(drafts, (all) => [...all, ...batch])
          return batch.filter((d) => !(world.raced ?? []).includes(d.walletId)).map((d, i) => taskOf(d, 100 + i, now))
        }),
      list: unused,
      find: () => Effect.succeed(Option.none()),
      unfinishedCount: () => Effect.succeed(7),
      unfinishedByStatus: unused,
      handBack: unused,
      statusOf: unused,
      claim: unused,
      claimOne: unused,
      save: unused,
      finish: unused,
      signingKey: unused
    }),
    Layer.succeed(NetworkResources, {
      chain: () => Effect.succeed(world.chain ?? scriptedChain({})),
      energyProvider: () => Effect.succeed(world.provider ?? noEnergyProvider())
    })
  )
}

const run = <A, E>(world: World, use: (sweeps: Sweeps["Type"]) => Effect.Effect<A, E, NetworkResources>, settings = SweepSettings.layer()) =>
  Effect.gen(function*() {
    const drafts = yield* Ref.make<ReadonlyArray<SweepDraft>>([])
    const layer = Sweeps.layer.pipe(Layer.provideMerge(ports(world, drafts)), Layer.provide(settings))
    const result = yield* Effect.flatMap(Sweeps, use).pipe(Effect.provide(layer))
    return { result, drafts: yield* Ref.get(drafts) }
  })

const ids = (...ns: ReadonlyArray<number>) => ns.map(String) as Array<WalletId>

describe("Sweeps.create", () => {
  it.effect("one result per requested wallet in request order: a task or the failure code with a readable message", () =>
    Effect.gen(function*() {
      const world: World = {
        wallets: [
          walletOf(1),
          walletOf(2, { collectionStatus: "collecting" }),
          walletOf(3, { isCollectionAddress: true }),
          walletOf(4),
          walletOf(5)
        ],
        raced: ["5"],
        policy: { maxWalletTrxFee: 3_000_000n }
      }
      const { drafts, result } = yield* run(world, (s) => s.create(scope, { walletIds: ids(4, 9, 1, 2, 3, 5), mode: "fixed", amount: 5n }, "manual", at))
      expect(result.items.map((i) => [i.walletId, i.ok ? "task" : i.failure])).toEqual([
        ["4", "task"],
        ["9", "WALLET_NOT_FOUND"],
        ["1", "task"],
        ["2", "WALLET_COLLECTING"],
        ["3", "WALLET_IS_COLLECTION_ADDRESS"],
        ["5", "WALLET_COLLECTING"]
      ])
      expect([result.created, result.failed]).toEqual([2, 4])
      const messages = result.items.flatMap((i) => (i.ok ? [] : [i.message]))
      expect(messages).toEqual([
        "wallet 9 not found",
        "wallet 2 already has an unfinished sweep task",
        "wallet 3 is the collection address",
        "wallet 5 already has an unfinished sweep task"
      ])
      expect(drafts.map((d) => d.walletId)).toEqual(["4", "1", "5"])
      expect(drafts[0]).toEqual({
        walletId: "4",
        address: "TWallet4",
        mode: "fixed",
        requestedAmount: 5n,
        minimumAmount: null,
        destination: collector,
        origin: "manual",
        maxWalletTrxFee: 3_000_000n,
        prepareBy: new Date("2026-06-02T00:00:00.000Z")
      })
    }))

  it.effect("without a collection address every found wallet fails with COLLECTION_ADDRESS_NOT_SET and nothing is inserted", () =>
    Effect.gen(function*() {
      const world: World = { wallets: [walletOf(1)], collection: { address: "", walletId: null, updatedAt: null } }
      const { drafts, result } = yield* run(world, (s) => s.create(scope, { walletIds: ids(1, 2), mode: "all", amount: null }, "automation", at))
      expect(result.items.map((i) => (i.ok ? "task" : i.failure))).toEqual(["COLLECTION_ADDRESS_NOT_SET", "WALLET_NOT_FOUND"])
      expect(drafts).toEqual([])
    }))

  it.effect("the wallet at the collection address is refused even when the setting does not name its ID", () =>
    Effect.gen(function*() {
      const world: World = { wallets: [walletOf(1, { address: collector })] }
      const { result } = yield* run(world, (s) => s.create(scope, { walletIds: ids(1), mode: "all", amount: null }, "manual", at))
      expect(result.items[0]).toMatchObject({ ok: false, failure: "WALLET_IS_COLLECTION_ADDRESS" })
    }))

  it.effect("a wallet named twice gets one task; automation origin, null requested amount and the preparation limit are kept", () =>
    Effect.gen(function*() {
      const { drafts, result } = yield* run(
        { wallets: [walletOf(1)] },
        (s) => s.create(scope, { walletIds: ids(1, 1), mode: "all", amount: null }, "automation", at),
        SweepSettings.layer({ preparationLimit: Duration.hours(2) })
      )
      expect(result.items.map((i) => (i.ok ? i.task.id : i.failure))).toEqual(["100", "WALLET_COLLECTING"])
      expect(drafts).toMatchObject([{ origin: "automation", requestedAmount: null, prepareBy: new Date("2026-06-01T02:00:00.000Z") }])
    }))

  it.effect("get fails with SweepNotFound; pendingCount is the store's unfinished count", () =>
    Effect.gen(function*() {
      const { result } = yield* run({ wallets: [] }, (s) =>
        Effect.all([Effect.flip(s.get(scope, "5" as SweepTaskId)), s.pendingCount(scope)]))
      expect(result[0]).toMatchObject({ _tag: "SweepNotFound", message: "sweep task 5 not found" })
      expect(result[1]).toBe(7)
    }))
})

describe("SweepSettings", () => {
  const load = (env: Record<string, string>) =>
    Effect.withConfigProvider(Effect.either(sweepSettingsConfig), ConfigProvider.fromMap(new Map(Object.entries(env))))

  it.effect("SWEEP_PREPARATION_HOURS defaults to 24 and accepts 1 to 720", () =>
    Effect.gen(function*() {
      expect(yield* load({})).toMatchObject({ right: { preparationLimit: Duration.hours(24) } })
      expect(yield* load({ SWEEP_PREPARATION_HOURS: "720" })).toMatchObject({ right: { preparationLimit: Duration.hours(720) } })
      for (const bad of ["0", "721", "1.5", "x"]) {
        const result = yield* load({ SWEEP_PREPARATION_HOURS: bad })
        expect(result._tag, bad).toBe("Left")
      }
      expect(String((yield* load({ SWEEP_PREPARATION_HOURS: "0" })).pipe((e) => (e._tag === "Left" ? e.left : "")))).toContain(
        "SWEEP_PREPARATION_HOURS must be a whole number from 1 to 720 (hours)"
      )
    }))

  it.effect("the layer without settings has the default of 24 h", () =>
    Effect.map(SweepSettings, (settings) => expect(Duration.toHours(settings.preparationLimit)).toBe(24)).pipe(Effect.provide(SweepSettings.layer())))
})

// ---- estimate -------------------------------------------------------------------------

const parameters: ChainParameters = { energyFee: 100n, bandwidthFee: 1000n, freeBandwidthPerDay: 600n, activationFee: 1_100_000n }

const accountOf = (address: string, overrides: Partial<AccountState> = {}): AccountState =>
  walletReading({ address, usdt: 0n, atBlock: 1000n, ...overrides })

interface Script {
  readonly accounts?: Readonly<Record<string, Partial<AccountState>>>
  readonly energy?: bigint
  readonly down?: boolean
  readonly estimateRefused?: ReadonlyArray<string>
  /** Addresses the USDT contract has frozen. */
  readonly frozen?: ReadonlyArray<string>
  readonly estimates?: Array<{ from: string; to: string; amount: bigint }>
}

const scriptedChain = (script: Script): ChainService => {
  const unused = Effect.dieMessage("not used by estimates")
  const down = script.down ? Effect.fail(new ChainUnavailable({ reason: "HTTP 503" })) : Effect.void
  return {
    headBlock: unused,
    solidifiedBlock: unused,
    blockTransfers: () => unused,
    account: (address) => Effect.as(down, accountOf(address, script.accounts?.[address])),
    balances: (address) => Effect.as(down, accountOf(address, script.accounts?.[address])),
    usdtBalance: (address) => Effect.as(down, accountOf(address, script.accounts?.[address]).usdt),
    trxBalance: (address) => Effect.as(down, accountOf(address, script.accounts?.[address])),
    resources: (address) => Effect.as(down, accountOf(address, script.accounts?.[address])),
    parameters: Effect.as(down, parameters),
    isBlackListed: (address) => Effect.as(down, script.frozen?.includes(address) ?? false),
    estimateTransferEnergy: (transfer) => {
      script.estimates?.push(transfer)
      return script.estimateRefused?.includes(transfer.from)
        ? Effect.fail(new ChainRejected({ reason: "REVERT opcode executed" }))
        : Effect.succeed(script.energy ?? 64_285n)
    },
    buildUsdtTransfer: () => unused,
    broadcast: () => unused,
    receipt: () => unused,
    stakeTotals: () => unused,
    energyStake: () => unused,
    delegatableEnergyStake: () => unused,
    lentEnergyStake: () => unused,
    buildEnergyLoan: () => unused,
    buildEnergyReclaim: () => unused,
    buildStake: () => unused,
    buildUnstake: () => unused
  }
}

const quotingProvider = (quotes: Array<RentalRequest>): EnergyProviderService => ({
  name: "test",
  supportsActivation: true,
  minimumEnergy: 32_000n,
  quote: (request) => {
    quotes.push(request)
    return Effect.succeed({ energy: request.energy, cost: request.energy * 40n, activationCost: request.activate ? 1_500_000n : 0n, durationSeconds: 3600 })
  },
  order: () => Effect.fail(new ProviderRejected({ reason: "not in estimates" })),
  find: () => Effect.succeedNone
})

describe("Sweeps.estimate", () => {
  // 64,285 energy + 10% = 70,714; at 100 SUN a shortfall of all of it burns 7,071,400 SUN.
  const prepared = 70_714n

  it.effect("each fee source, the reasons a wallet is not sweepable, not-found IDs and the totals of the sweepable ones", () =>
    Effect.gen(function*() {
      const quotes: Array<RentalRequest> = []
      const estimates: Array<{ from: string; to: string; amount: bigint }> = []
      const chain = scriptedChain({
        estimates,
        accounts: {
          TWallet1: { usdt: 500n, energyLimit: 100_000n, energyUsed: 10_000n },
          TWallet2: { usdt: 700n, trx: 10_000_000n },
          TWallet3: { usdt: 900n, energyLimit: 60_000n, freeBandwidthLimit: 0n },
          TWallet4: { usdt: 300n, activated: false, freeBandwidthLimit: 0n },
          TWallet5: { usdt: 0n },
          TWallet6: { usdt: 100n, energyLimit: 100_000n },
          TWallet7: { usdt: 100n, energyLimit: 100_000n }
        }
      })
      const world: World = {
        wallets: [1, 2, 3, 4, 5, 6, 7].map((n) => walletOf(n, n === 7 ? { collectionStatus: "collecting" } : {})),
        chain,
        provider: quotingProvider(quotes),
        policy: { rentalAllowed: true, maxRentalCost: 4_000_000n }
      }
      const { result } = yield* run(world, (s) => s.estimate(scope, { walletIds: ids(1, 2, 3, 4, 5, 6, 7, 42), mode: "fixed", amount: 400n }))
      const byId = Object.fromEntries(result.items.map((i) => [i.walletId, i]))
      expect(result.items.map((i) => i.walletId)).toEqual(["1", "2", "3", "4", "5", "6", "7"])
      expect(result.notFound).toEqual(["42"])
      expect(byId["1"]).toEqual({
        walletId: "1", address: "TWallet1", amount: 400n, sweepable: true, reason: "", feeSource: "resources",
        energyEstimate: 64_285n, preparedEnergy: prepared, energyAvailable: 90_000n,
        estimatedWalletTrxFee: 0n, estimatedRentalCost: 0n, estimatedActivationCost: 0n,
        bandwidthNeeded: 345n, bandwidthAvailable: 600n, waitsForBandwidth: false,
        energyPath: "own", feeReason: "the wallet's own energy covers the 70714 needed"
      })
      // The contract's order: the wallet's TRX burns within max_wallet_trx_fee before any rental (no quote asked).
      expect(byId["2"]).toMatchObject({ sweepable: true, feeSource: "wallet_trx", energyPath: "burn", estimatedWalletTrxFee: prepared * 100n, estimatedRentalCost: 0n, energyAvailable: 0n })
      // 60,000 delegated: a 10,714 shortfall; the provider's minimum order is 32,000 energy.
      expect(byId["3"]).toMatchObject({
        sweepable: true, feeSource: "rental", estimatedRentalCost: 32_000n * 40n, estimatedActivationCost: 0n,
        bandwidthAvailable: 0n, waitsForBandwidth: true
      })
      // Not activated: the whole prepared energy is rented, with the activation; activation brings the day's free bandwidth.
      expect(byId["4"]).toMatchObject({
        sweepable: false, feeSource: null, energyPath: null, estimatedRentalCost: prepared * 40n, estimatedActivationCost: 1_500_000n,
        reason: "the amount 400 is above the wallet's USDT balance 300; no way to pay 70714 energy: the energy rental would cost 4328560 SUN, " +
          "above max_rental_cost 4000000; the wallet is not activated on chain",
        bandwidthAvailable: 600n, waitsForBandwidth: false
      })
      expect(byId["5"]).toMatchObject({ sweepable: false, feeSource: null, reason: "the wallet holds no USDT at the solidified block", energyEstimate: 0n })
      expect(byId["6"]).toMatchObject({ sweepable: false, feeSource: "resources", reason: "the amount 400 is above the wallet's USDT balance 100" })
      expect(byId["7"]).toMatchObject({ sweepable: false, reason: "wallet 7 already has an unfinished sweep task; the amount 400 is above the wallet's USDT balance 100" })
      expect(quotes).toEqual([
        { receiver: "TWallet3", energy: 32_000n, activate: false },
        { receiver: "TWallet4", energy: prepared, activate: true }
      ])
      // Above the balance the transfer is estimated at the balance (a larger one would revert).
      expect(estimates.find((e) => e.from === "TWallet4")).toEqual({ from: "TWallet4", to: collector, amount: 300n })
      expect(result.total).toEqual({
        amount: 1200n,
        preparedEnergy: prepared * 3n,
        estimatedWalletTrxFee: prepared * 100n,
        estimatedRentalCost: 32_000n * 40n,
        estimatedActivationCost: 0n
      })
    }))

  it.effect("all: the on-chain balance; unpayable plans and refused rentals say why", () =>
    Effect.gen(function*() {
      const chain = scriptedChain({
        accounts: { TWallet1: { usdt: 800n, trx: 1_000n }, TWallet2: { usdt: 900n, activated: false }, TWallet3: { usdt: 5n } },
        estimateRefused: ["TWallet3"]
      })
      const { result } = yield* run({ wallets: [walletOf(1), walletOf(2), walletOf(3)], chain }, (s) =>
        s.estimate(scope, { walletIds: ids(1, 2, 3), mode: "all", amount: null }))
      expect(result.items.map((i) => [i.amount, i.sweepable, i.feeSource, i.reason])).toEqual([
        [800n, false, null, "no way to pay 70714 energy: energy rental is not allowed; burning would cost 7071400 SUN and the wallet holds 1000"],
        [900n, false, null, "no way to pay 70714 energy: energy rental is not allowed; the wallet is not activated on chain"],
        [5n, false, null, "the node could not estimate the transfer: REVERT opcode executed"]
      ])
      const rentable = yield* run({ wallets: [walletOf(1)], chain, policy: { rentalAllowed: true } }, (s) =>
        s.estimate(scope, { walletIds: ids(1), mode: "all", amount: null }))
      expect(rentable.result.items[0]).toMatchObject({
        sweepable: false, feeSource: null, energyPath: null,
        reason: `no way to pay 70714 energy: the energy provider "none" refused the rental: no energy provider configured; burning would cost 7071400 SUN and the wallet holds 1000`
      })
      expect(rentable.result.total.amount).toBe(0n)
    }))

  it.effect("a wallet frozen by the USDT issuer: not sweepable, with the reason; no transfer estimated, no rental quoted", () =>
    Effect.gen(function*() {
      const quotes: Array<RentalRequest> = []
      const estimates: Array<{ from: string; to: string; amount: bigint }> = []
      const chain = scriptedChain({
        estimates,
        frozen: ["TWallet2"],
        accounts: { TWallet1: { usdt: 10n, energyLimit: 100_000n }, TWallet2: { usdt: 20n, activated: false } }
      })
      const { result } = yield* run({ wallets: [walletOf(1), walletOf(2)], chain, provider: quotingProvider(quotes), policy: { rentalAllowed: true } }, (s) =>
        s.estimate(scope, { walletIds: ids(1, 2), mode: "all", amount: null }))
      expect(result.items.map((i) => [i.walletId, i.sweepable, i.feeSource, i.reason])).toEqual([
        ["1", true, "resources", ""],
        ["2", false, null, "the wallet's USDT is frozen by the token's issuer (isBlackListed): nothing is rented or signed for it"]
      ])
      expect(estimates.map((e) => e.from)).toEqual(["TWallet1"])
      expect(quotes).toEqual([])
      expect(result.total.amount).toBe(10n)
    }))

  it.effect("no collection address, or the wallet is the collection address: not sweepable, no transfer estimated", () =>
    Effect.gen(function*() {
      const estimates: Array<{ from: string; to: string; amount: bigint }> = []
      const chain = scriptedChain({ estimates, accounts: { TWallet1: { usdt: 10n }, [collector]: { usdt: 10n } } })
      const unset = yield* run({ wallets: [walletOf(1)], chain, collection: { address: "", walletId: null, updatedAt: null } }, (s) =>
        s.estimate(scope, { walletIds: ids(1), mode: "all", amount: null }))
      expect(unset.result.items[0]).toMatchObject({ amount: 10n, sweepable: false, reason: "no collection address is set for this network" })
      const self = yield* run({ wallets: [walletOf(2, { address: collector, isCollectionAddress: true })], chain }, (s) =>
        s.estimate(scope, { walletIds: ids(2), mode: "all", amount: null }))
      expect(self.result.items[0]).toMatchObject({ sweepable: false, reason: "wallet 2 is the collection address" })
      expect(estimates).toEqual([])
    }))

  it.effect("a node that does not answer fails the whole estimate; nothing found needs no node", () =>
    Effect.gen(function*() {
      const chain = scriptedChain({ down: true })
      const failed = yield* run({ wallets: [walletOf(1)], chain }, (s) => Effect.flip(s.estimate(scope, { walletIds: ids(1), mode: "all", amount: null })))
      expect(failed.result).toMatchObject({ _tag: "SweepEstimateUnavailable", message: "estimate unavailable: the nile TRON node did not answer, try again later" })
      const none = yield* run({ wallets: [], chain }, (s) => s.estimate(scope, { walletIds: ids(3, 1), mode: "all", amount: null }))
      expect(none.result).toEqual({
        items: [],
        notFound: ["1", "3"],
        total: { amount: 0n, preparedEnergy: 0n, estimatedWalletTrxFee: 0n, estimatedRentalCost: 0n, estimatedActivationCost: 0n }
      })
    }))
})
