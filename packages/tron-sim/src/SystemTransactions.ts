import { type TransactionRaw, Trc20Call } from "@collector/tron"
import { Either, Option } from "effect"
import { pendingWorld } from "./Broadcast.js"
import { stakeForEnergy } from "./SimAccount.js"
import { otherTokenHex, usdtHex } from "./SimConfig.js"
import { SimControlError } from "./SimErrors.js"
import { placeholderSignature } from "./Seeded.js"
import { fromRawData } from "./SimTransaction.js"
import { head, isKnown, type SimState } from "./SimState.js"
import { delegateContract, rawFor, transferContract, triggerContract } from "./TransactionBuilder.js"
import { batchData, type BatchItem, batchMintSelector, batchTransferSelector } from "./TokenBatch.js"
import { mintAlongsideData, mintData } from "./UsdtContract.js"
import { account, isActivated, tokenBalance } from "./WorldState.js"

/**
 * The control surface's transactions: what other people do on the network (an exchange pays a
 * deposit, a provider delegates energy, someone activates an address). They are real
 * transactions with real bytes, added to the pending pool and mined like any other, so they
 * appear in blocks, receipts and logs; they skip signature checks and fees because the
 * simulator does not hold those senders' keys. Addresses are 21-byte hex.
 */

export interface Injected {
  readonly state: SimState
  readonly txid: string
}

const fail = (reason: string) => Either.left(new SimControlError({ reason }))

/** Adds a system transaction; the timestamp is nudged by a millisecond until its txid is new. */
export const inject = (state: SimState, contract: TransactionRaw.Contract, now: number, feeLimit?: bigint): Injected => {
  for (let at = now;; at++) {
    const tx = Either.getOrThrow(fromRawData(rawFor(state, contract, at, feeLimit), []))
    if (isKnown(state, tx.txid)) continue
    const signed = { ...tx, signatures: [placeholderSignature(state.config.seed, tx.txid)] }
    const pending = { tx: signed, system: true, notBefore: head(state).number + 1n }
    return { state: { ...state, pending: [...state.pending, pending] }, txid: tx.txid }
  }
}

const positive = (amount: bigint, what: string) => (amount > 0n ? Either.void : fail(`${what} must be positive, got ${amount}`))

/**
 * The USDT contract, like any ERC-20, accepts a transfer (and the issuer a mint) of 0 and emits
 * its Transfer log of value 0: the address-poisoning kind, which a scanner must not book.
 */
const tokenAmount = (amount: bigint) => (amount >= 0n ? Either.void : fail(`amount must not be negative, got ${amount}`))

/** New USDT for `to`, minted by the issuer (a Transfer log from the zero address). */
export const mintUsdt = (state: SimState, to: string, amount: bigint, now: number): Either.Either<Injected, SimControlError> =>
  Either.map(tokenAmount(amount), () =>
    inject(state, triggerContract({ owner_address: state.issuer.hex, contract_address: usdtHex(state.config), data: mintData(to, amount) }), now, 100_000_000n))

/** The issuer (the contract's owner here) freezes (`listed`) or unfreezes `address`'s USDT: Tether's `addBlackList` / `removeBlackList`. */
export const setUsdtBlackListed = (state: SimState, address: string, listed: boolean, now: number): Injected => {
  const selector = listed ? Trc20Call.addBlackListSelector : Trc20Call.removeBlackListSelector
  return inject(state, triggerContract({ owner_address: state.issuer.hex, contract_address: usdtHex(state.config), data: selector + address.slice(2).padStart(64, "0") }), now, 100_000_000n)
}

/** A USDT transfer by `from`, which must hold the amount once the pending pool has run. */
export const transferUsdt = (state: SimState, from: string, to: string, amount: bigint, now: number): Either.Either<Injected, SimControlError> =>
  Either.gen(function*() {
    yield* tokenAmount(amount)
    yield* holds(state, usdtHex(state.config), "USDT", from, amount, now)
    return inject(state, triggerContract({ owner_address: from, contract_address: usdtHex(state.config), data: transferData(to, amount) }), now, 100_000_000n)
  })

const transferData = (to: string, amount: bigint) => "a9059cbb" + to.slice(2).padStart(64, "0") + amount.toString(16).padStart(64, "0")

/** `from` must hold `amount` of the token once the pending pool has run, or the call would revert. */
const holds = (state: SimState, contract: string, token: string, from: string, amount: bigint, now: number) => {
  const held = tokenBalance(pendingWorld(state, now), contract, from)
  return held < amount ? fail(`${from} holds ${held} ${token} units, cannot send ${amount}`) : Either.void
}

/**
 * Several USDT Transfers in ONE transaction, one Transfer log per item in item order (log
 * indexes 0..n-1). With `from`, that holder calls `batchTransfer(address[],uint256[])` and must
 * hold the sum; without, the issuer calls `batchMint(address[],uint256[])` (logs from the zero
 * address). The fee limit (10,000 TRX) is only printed: injected transactions pay nothing.
 */
export const batchTransferUsdt = (
  state: SimState,
  from: Option.Option<string>,
  items: ReadonlyArray<BatchItem>,
  now: number
): Either.Either<Injected, SimControlError> =>
  Either.gen(function*() {
    if (items.length === 0) return yield* fail("transfers must not be empty")
    for (const item of items) yield* tokenAmount(item.amount)
    const contract = usdtHex(state.config)
    if (Option.isSome(from)) yield* holds(state, contract, "USDT", from.value, items.reduce((sum, item) => sum + item.amount, 0n), now)
    const owner = Option.getOrElse(from, () => state.issuer.hex)
    const data = batchData(Option.isSome(from) ? batchTransferSelector : batchMintSelector, items)
    return inject(state, triggerContract({ owner_address: owner, contract_address: contract, data }), now, 10_000_000_000n)
  })

/**
 * A transaction of the other token (not USDT), for tests that a scanner ignores its Transfer
 * log: `from` transfers `amount` (and must hold it), or without `from` the issuer mints it.
 */
export const transferOtherToken = (state: SimState, from: Option.Option<string>, to: string, amount: bigint, now: number): Either.Either<Injected, SimControlError> =>
  Either.gen(function*() {
    yield* positive(amount, "amount")
    const contract = otherTokenHex(state.config)
    if (Option.isSome(from)) yield* holds(state, contract, "other-token", from.value, amount, now)
    const owner = Option.getOrElse(from, () => state.issuer.hex)
    const data = Option.isSome(from) ? transferData(to, amount) : mintData(to, amount)
    return inject(state, triggerContract({ owner_address: owner, contract_address: contract, data }), now, 100_000_000n)
  })

/**
 * One transaction with Transfer logs of two contracts: the issuer's `mintAlongside` on the USDT
 * contract mints `otherAmount` of the other token (log index 0) and `amount` USDT (log index 1)
 * to `to`. A scanner must book the USDT log, at its own index, and nothing for the other.
 */
export const mintUsdtAlongsideOther = (state: SimState, to: string, amount: bigint, otherAmount: bigint, now: number): Either.Either<Injected, SimControlError> =>
  Either.gen(function*() {
    yield* tokenAmount(amount)
    yield* tokenAmount(otherAmount)
    const data = mintAlongsideData(otherTokenHex(state.config), to, otherAmount, amount)
    return inject(state, triggerContract({ owner_address: state.issuer.hex, contract_address: usdtHex(state.config), data }), now, 100_000_000n)
  })

/** A TRX transfer from `from` (the faucet when absent); activates the recipient if needed. */
export const transferTrx = (state: SimState, from: Option.Option<string>, to: string, amount: bigint, now: number): Either.Either<Injected, SimControlError> =>
  Either.gen(function*() {
    yield* positive(amount, "amount")
    const owner = Option.getOrElse(from, () => state.faucet.hex)
    const sender = account(pendingWorld(state, now), owner)
    if (Option.isSome(sender) && sender.value.balance < amount) return yield* fail(`${owner} holds ${sender.value.balance} SUN, cannot send ${amount}`)
    if (owner === to) return yield* fail("cannot transfer TRX to the same address")
    return inject(state, transferContract({ owner_address: owner, to_address: to, amount }), now)
  })

/** Activation as it happens on chain: someone sends the address TRX (1 SUN unless told otherwise). */
export const activate = (state: SimState, address: string, trx: bigint, now: number): Either.Either<Injected, SimControlError> =>
  isActivated(pendingWorld(state, now), address) ? fail(`${address} is already activated`) : transferTrx(state, Option.none(), address, trx, now)

/**
 * Energy rental: the provider stakes enough TRX for `energy` and delegates it (type 57).
 * An inactive address cannot receive a delegation, as on chain.
 */
export const delegateEnergy = (
  state: SimState,
  to: string,
  energy: bigint,
  now: number,
  type: "DelegateResourceContract" | "UnDelegateResourceContract" = "DelegateResourceContract"
): Either.Either<Injected, SimControlError> =>
  Either.gen(function*() {
    yield* positive(energy, "energy")
    if (!isActivated(pendingWorld(state, now), to)) return yield* fail(`${to} is not activated: it cannot receive delegated energy`)
    const balance = stakeForEnergy(energy, state.parameters)
    return inject(state, delegateContract(type, { owner_address: state.provider.hex, resource: "ENERGY", balance, receiver_address: to }), now)
  })
