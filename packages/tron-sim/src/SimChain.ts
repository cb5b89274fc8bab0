import { TronAddress } from "@collector/tron"
import { Clock, Effect, Either, Option, Ref } from "effect"
import { broadcastHex } from "./Broadcast.js"
import { produceBlocks } from "./BlockProduction.js"
import { reorganise } from "./Reorg.js"
import type { SimBlock } from "./SimBlock.js"
import type { SimConfig } from "./SimConfig.js"
import { type MalformedRequest, SimControlError, type TransactionRejected } from "./SimErrors.js"
import { genesis, head, type Outage, type SimState } from "./SimState.js"
import * as SystemTransactions from "./SystemTransactions.js"

/**
 * A simulated TRON network in memory: the current SimState behind a Ref, advanced by the pure
 * rules of the other modules, with time from Effect's Clock (so TestClock drives it). The HTTP
 * server speaks java-tron's API over it; tests may also drive it directly. Addresses taken
 * here are Base58Check or 21-byte hex; amounts are bigint (SUN, or USDT's 6-decimal units).
 */
export interface SimChain {
  readonly config: SimConfig
  /** The current state, for queries. */
  readonly state: Effect.Effect<SimState>
  /** Produces `count` blocks now (default 1) and returns them. */
  readonly mine: (count?: number) => Effect.Effect<ReadonlyArray<SimBlock>>
  /** `broadcasthex`: the txid once the transaction is in the pool. */
  readonly broadcastHex: (hex: string) => Effect.Effect<string, TransactionRejected | MalformedRequest>
  readonly mintUsdt: (to: string, amount: bigint) => Effect.Effect<string, SimControlError>
  readonly transferUsdt: (transfer: { readonly from: string; readonly to: string; readonly amount: bigint }) => Effect.Effect<string, SimControlError>
  /** The issuer's `addBlackList` (`listed`) or `removeBlackList` on the USDT contract, in the next block. Returns the txid. */
  readonly setBlackListed: (address: string, listed: boolean) => Effect.Effect<string, SimControlError>
  /**
   * Several USDT transfers in ONE transaction, one Transfer log per item (log indexes 0..n-1):
   * `from`'s `batchTransfer`, or without `from` the issuer's `batchMint`. Returns the txid.
   */
  readonly batchTransferUsdt: (batch: {
    readonly from?: string
    readonly transfers: ReadonlyArray<{ readonly to: string; readonly amount: bigint }>
  }) => Effect.Effect<string, SimControlError>
  /** A Transfer of the other token (`config.otherTokenContract`): `from`'s transfer, or without `from` the issuer's mint. */
  readonly transferOtherToken: (transfer: { readonly from?: string; readonly to: string; readonly amount: bigint }) => Effect.Effect<string, SimControlError>
  /**
   * One transaction with Transfer logs of two contracts: the other token's (log index 0), then
   * USDT's (log index 1), both minted to `to` by the issuer. Returns the txid.
   */
  readonly mintUsdtAlongsideOther: (mint: { readonly to: string; readonly amount: bigint; readonly otherAmount: bigint }) => Effect.Effect<string, SimControlError>
  /** From the faucet unless `from` is given. */
  readonly transferTrx: (transfer: { readonly from?: string; readonly to: string; readonly amount: bigint }) => Effect.Effect<string, SimControlError>
  readonly activate: (address: string, trx?: bigint) => Effect.Effect<string, SimControlError>
  readonly delegateEnergy: (to: string, energy: bigint) => Effect.Effect<string, SimControlError>
  readonly undelegateEnergy: (to: string, energy: bigint) => Effect.Effect<string, SimControlError>
  readonly setEnergyPrice: (sunPerEnergy: bigint) => Effect.Effect<void, SimControlError>
  /** Replaces the last `depth` blocks with `depth + 1` others, leaving out `exclude`d transactions. */
  readonly reorg: (depth: number, exclude?: ReadonlyArray<string>) => Effect.Effect<void, SimControlError>
  /** The next `count` broadcasts are answered with success and lost. */
  readonly dropNextBroadcast: (count?: number) => Effect.Effect<void>
  /** The next broadcast waits `blocks` blocks in the pool before it may be included. */
  readonly delayNextBroadcast: (blocks: number) => Effect.Effect<void, SimControlError>
  /** The node answers 503 (`error`) or holds every request (`timeout`) for `millis`. */
  readonly fail: (mode: Outage["mode"], millis: number) => Effect.Effect<void, SimControlError>
  /**
   * The next `count` node API requests whose path starts with `path` (default `/wallet`, every
   * node call) are carried out, and their replies lost: the caller sees the connection close.
   */
  readonly loseNextReplies: (count: number, path?: string) => Effect.Effect<void, SimControlError>
  /** Whether the reply to a request for `path` is to be lost (and one fewer is then armed). */
  readonly takeLostReply: (path: string) => Effect.Effect<boolean>
  /** Disarms every node fault: no outage, no broadcast dropped, delayed or answer lost from now on. */
  readonly resetFaults: Effect.Effect<void>
  /** The outage in force now, if any. */
  readonly outage: Effect.Effect<Option.Option<Outage>>
  readonly setEstimateEnergy: (enabled: boolean) => Effect.Effect<void>
}

const controlError = (reason: string) => new SimControlError({ reason })

/** 21-byte hex of an address given in either form. */
export const addressHex = (address: string): Either.Either<string, SimControlError> => {
  if (TronAddress.isValidTronAddress(address)) return Either.right(Option.getOrThrow(TronAddress.toHex(address)))
  return /^41[0-9a-fA-F]{40}$/.test(address) && Option.isSome(TronAddress.fromHex(address))
    ? Either.right(address.toLowerCase())
    : Either.left(controlError(`not a TRON address: ${address}`))
}

export const make = (config: SimConfig): Effect.Effect<SimChain> =>
  Effect.gen(function*() {
    const ref = yield* Ref.make(genesis(config, yield* Clock.currentTimeMillis))

    /** Applies a pure step at the current time; a Left leaves the state as it was. */
    const step = <A, E>(f: (state: SimState, now: number) => Either.Either<readonly [A, SimState], E>): Effect.Effect<A, E> =>
      Effect.flatMap(Clock.currentTimeMillis, (now) =>
        Effect.flatten(Ref.modify(ref, (state): readonly [Either.Either<A, E>, SimState] =>
          Either.match(f(state, now), {
            onLeft: (error) => [Either.left(error), state],
            onRight: ([value, next]) => [Either.right(value), next]
          }))))

    const injected = (run: (state: SimState, now: number) => Either.Either<SystemTransactions.Injected, SimControlError>) =>
      step((state, now) => Either.map(run(state, now), ({ state: next, txid }) => [txid, next] as const))

    const withHex = <A>(address: string, f: (hex: string) => Effect.Effect<A, SimControlError>) =>
      Effect.flatMap(addressHex(address), f)

    const update = (f: (state: SimState, now: number) => SimState) => step((state, now) => Either.right([undefined, f(state, now)] as const))

    const mine: SimChain["mine"] = (count = 1) =>
      step((state, now) => {
        const next = produceBlocks(state, count, now)
        return Either.right([next.blocks.slice(state.blocks.length), next] as const)
      })

    const optionalHex = (address: string | undefined) =>
      address === undefined ? Effect.succeed(Option.none<string>()) : Effect.map(addressHex(address), Option.some)

    const nonNegativeInteger = (value: number, what: string) =>
      Number.isInteger(value) && value >= 0 ? Effect.void : Effect.fail(controlError(`${what} must be a non-negative integer, got ${value}`))

    return {
      config,
      state: Ref.get(ref),
      mine,
      broadcastHex: (hex) =>
        step((state, now) => {
          const { state: next, result } = broadcastHex(state, hex, now)
          return Either.map(result, (txid) => [txid, next] as const)
        }),
      mintUsdt: (to, amount) => withHex(to, (hex) => injected((state, now) => SystemTransactions.mintUsdt(state, hex, amount, now))),
      transferUsdt: ({ amount, from, to }) =>
        withHex(from, (fromHex) => withHex(to, (toHex) => injected((state, now) => SystemTransactions.transferUsdt(state, fromHex, toHex, amount, now)))),
      setBlackListed: (address, listed) =>
        withHex(address, (hex) => injected((state, now) => Either.right(SystemTransactions.setUsdtBlackListed(state, hex, listed, now)))),
      batchTransferUsdt: ({ from, transfers }) =>
        Effect.flatMap(optionalHex(from), (fromHex) =>
          Effect.flatMap(
            Effect.forEach(transfers, ({ amount, to }) => Effect.map(addressHex(to), (toHex) => ({ to: toHex, amount }))),
            (items) => injected((state, now) => SystemTransactions.batchTransferUsdt(state, fromHex, items, now))
          )),
      transferOtherToken: ({ amount, from, to }) =>
        Effect.flatMap(optionalHex(from), (fromHex) =>
          withHex(to, (toHex) => injected((state, now) => SystemTransactions.transferOtherToken(state, fromHex, toHex, amount, now)))),
      mintUsdtAlongsideOther: ({ amount, otherAmount, to }) =>
        withHex(to, (toHex) => injected((state, now) => SystemTransactions.mintUsdtAlongsideOther(state, toHex, amount, otherAmount, now))),
      transferTrx: ({ amount, from, to }) =>
        Effect.flatMap(optionalHex(from), (fromHex) =>
          withHex(to, (toHex) => injected((state, now) => SystemTransactions.transferTrx(state, fromHex, toHex, amount, now)))),
      activate: (address, trx = 1n) => withHex(address, (hex) => injected((state, now) => SystemTransactions.activate(state, hex, trx, now))),
      delegateEnergy: (to, energy) => withHex(to, (hex) => injected((state, now) => SystemTransactions.delegateEnergy(state, hex, energy, now))),
      undelegateEnergy: (to, energy) =>
        withHex(to, (hex) => injected((state, now) => SystemTransactions.delegateEnergy(state, hex, energy, now, "UnDelegateResourceContract"))),
      setEnergyPrice: (sunPerEnergy) =>
        sunPerEnergy > 0n
          ? update((state) => ({ ...state, parameters: { ...state.parameters, energyFee: sunPerEnergy } }))
          : Effect.fail(controlError(`energy price must be positive, got ${sunPerEnergy}`)),
      reorg: (depth, exclude = []) =>
        step((state, now) => Either.map(reorganise(state, depth, new Set(exclude.map((id) => id.toLowerCase())), now), (next) => [undefined, next] as const)),
      dropNextBroadcast: (count = 1) =>
        Ref.update(ref, (state) => ({ ...state, faults: { ...state.faults, dropBroadcasts: state.faults.dropBroadcasts + count } })),
      delayNextBroadcast: (blocks) =>
        Effect.zipRight(
          nonNegativeInteger(blocks, "delay"),
          Ref.update(ref, (state) => ({ ...state, faults: { ...state.faults, delayNextBroadcast: blocks } }))
        ),
      fail: (mode, millis) =>
        Effect.zipRight(
          nonNegativeInteger(millis, "outage length"),
          update((state, now) => ({ ...state, faults: { ...state.faults, outage: Option.some({ mode, until: now + millis }) } }))
        ),
      loseNextReplies: (count, path = "/wallet") =>
        Effect.zipRight(
          nonNegativeInteger(count, "count"),
          Ref.update(ref, (state) => ({
            ...state,
            faults: { ...state.faults, lostReplies: [...state.faults.lostReplies, { path, remaining: count }].filter((l) => l.remaining > 0) }
          }))
        ),
      takeLostReply: (path) =>
        Ref.modify(ref, (state) => {
          const armed = state.faults.lostReplies.findIndex((l) => path.startsWith(l.path))
          if (armed < 0) return [false, state] as const
          const lostReplies = state.faults.lostReplies
            .map((l, i) => (i === armed ? { ...l, remaining: l.remaining - 1 } : l))
            .filter((l) => l.remaining > 0)
          return [true, { ...state, faults: { ...state.faults, lostReplies } }] as const
        }),
      resetFaults: Ref.update(ref, (state) => ({
        ...state,
        faults: { dropBroadcasts: 0, delayNextBroadcast: 0, outage: Option.none(), lostReplies: [] }
      })),
      outage: Effect.flatMap(Clock.currentTimeMillis, (now) =>
        Effect.map(Ref.get(ref), (state) => Option.filter(state.faults.outage, (outage) => outage.until > now))),
      setEstimateEnergy: (enabled) => Ref.update(ref, (state) => ({ ...state, estimateEnergy: enabled }))
    }
  })

/** The head block's number: a convenience for tests. */
export const headNumber = (chain: SimChain): Effect.Effect<bigint> => Effect.map(chain.state, (state) => head(state).number)
