import { Sweeps } from "@collector/core"
import { Data, Either, Option } from "effect"

/**
 * The simulated energy rental provider's order book as one immutable value: its prices, the
 * orders taken under the client's own order numbers, and the faults armed by the control API.
 * Pure functions only; SimEnergyProvider holds the current book and does the chain work.
 * Amounts are SUN (bigint); energy is in energy units.
 */

export interface ProviderSettings {
  /** SUN per energy unit for one order of `durationMs`. */
  readonly pricePerEnergy: bigint
  /** SUN charged for activating an inactive receiver. */
  readonly activationCost: bigint
  /** SUN the provider sends to an inactive receiver to activate it. */
  readonly activationAmount: bigint
  /** How long a delivered delegation lasts before the provider takes it back. */
  readonly durationMs: number
  readonly minimumEnergy: bigint
  readonly maximumEnergy: bigint
}

/** Mid-range mainnet prices (`mainnetFees`): 90 SUN per energy for an hour, activation at its cost on chain. */
export const defaultProviderSettings: ProviderSettings = {
  pricePerEnergy: 90n,
  activationCost: Sweeps.mainnetFees.activation,
  activationAmount: 1n,
  durationMs: 3_600_000,
  minimumEnergy: 10_000n,
  maximumEnergy: 10_000_000n
}

/** How an answer to an order call gets lost: HTTP 504, a closed connection, or held until `holdMs`, then 504. */
export interface LostAnswer {
  readonly mode: "504" | "close" | "hold"
  readonly holdMs: number
}

/** A fault armed for the next `remaining` order calls. */
export interface Armed<A> {
  readonly value: A
  readonly remaining: number
}

export interface ProviderFaults {
  /** Blocks to wait before delivering. */
  readonly slow: Option.Option<Armed<number>>
  /** Percent of the ordered energy actually delegated. */
  readonly underDeliver: Option.Option<Armed<number>>
  /** Accepted, then failed without delegation, with this reason. */
  readonly fail: Option.Option<Armed<string>>
  /** Refused with this reason; nothing ordered. */
  readonly reject: Option.Option<Armed<string>>
  /** Carried out, but the answer is lost. */
  readonly unknown: Option.Option<Armed<LostAnswer>>
}

export const noFaults: ProviderFaults = {
  slow: Option.none(),
  underDeliver: Option.none(),
  fail: Option.none(),
  reject: Option.none(),
  unknown: Option.none()
}

export interface BookOrder {
  readonly orderNo: string
  readonly providerOrderId: string
  /** Base58Check and 21-byte hex of the receiver. */
  readonly receiver: string
  readonly receiverHex: string
  readonly energy: bigint
  /** What the provider will delegate: less than `energy` when under-delivering. */
  readonly delegatedEnergy: bigint
  readonly activate: boolean
  readonly pricePerEnergy: bigint
  /** SUN for the activation; 0 when none is needed. */
  readonly activationCost: bigint
  readonly durationMs: number
  readonly createdAt: number
  /** Delivery starts once the head is at least this block. */
  readonly deliverAfter: bigint
  /** The armed failure this order will meet at delivery. */
  readonly willFail: Option.Option<string>
  readonly failed: Option.Option<string>
  readonly activationTxid: Option.Option<string>
  readonly delegateTxid: Option.Option<string>
  readonly undelegateTxid: Option.Option<string>
}

export interface ProviderBook {
  readonly settings: ProviderSettings
  readonly orders: ReadonlyArray<BookOrder>
  readonly faults: ProviderFaults
}

export const emptyBook = (settings: ProviderSettings): ProviderBook => ({ settings, orders: [], faults: noFaults })

/** A clear refusal: nothing was ordered. `code` is machine-readable (REJECTED, NOT_ACTIVATED, ...). */
export class ProviderRefused extends Data.TaggedError("ProviderRefused")<{ readonly code: string; readonly reason: string }> {
  override get message() {
    return this.reason
  }
}

export interface OrderRequest {
  readonly orderNo: string
  readonly receiver: string
  readonly receiverHex: string
  readonly energy: bigint
  readonly activate: boolean
}

export interface QuoteFigures {
  readonly pricePerEnergy: bigint
  readonly cost: bigint
  readonly activationCost: bigint
  readonly durationMs: number
}

/** One use of an armed fault: its value, and what stays armed. */
export const take = <A>(armed: Option.Option<Armed<A>>): readonly [Option.Option<A>, Option.Option<Armed<A>>] =>
  Option.match(armed, {
    onNone: () => [Option.none(), Option.none()] as const,
    onSome: ({ remaining, value }) => [Option.some(value), remaining > 1 ? Option.some({ value, remaining: remaining - 1 }) : Option.none()] as const
  })

export const findOrder = (book: ProviderBook, orderNo: string): Option.Option<BookOrder> =>
  Option.fromNullable(book.orders.find((order) => order.orderNo === orderNo))

/** The price of `energy` (and of an activation when the receiver needs one), or why it cannot be had. */
export const quoteFor = (
  settings: ProviderSettings,
  energy: bigint,
  activate: boolean,
  activated: boolean
): Either.Either<QuoteFigures, ProviderRefused> => {
  if (energy < settings.minimumEnergy || energy > settings.maximumEnergy) {
    const reason = `energy must be between ${settings.minimumEnergy} and ${settings.maximumEnergy}, got ${energy}`
    return Either.left(new ProviderRefused({ code: "INVALID_ENERGY", reason }))
  }
  if (!activated && !activate) {
    return Either.left(new ProviderRefused({ code: "NOT_ACTIVATED", reason: "the receiver is not activated; order with activate to have it activated" }))
  }
  return Either.right({
    pricePerEnergy: settings.pricePerEnergy,
    cost: energy * settings.pricePerEnergy,
    activationCost: activated ? 0n : settings.activationCost,
    durationMs: settings.durationMs
  })
}

/**
 * A new order at head block `head`: an armed refusal refuses it (and is used up); otherwise the
 * armed slowness, under-delivery and failure shape it.
 */
export const placeOrder = (
  book: ProviderBook,
  request: OrderRequest,
  activated: boolean,
  now: number,
  head: bigint
): Either.Either<readonly [BookOrder, ProviderBook], readonly [ProviderRefused, ProviderBook]> => {
  const [refusal, reject] = take(book.faults.reject)
  if (Option.isSome(refusal)) {
    return Either.left([new ProviderRefused({ code: "REJECTED", reason: refusal.value }), { ...book, faults: { ...book.faults, reject } }] as const)
  }
  const figures = quoteFor(book.settings, request.energy, request.activate, activated)
  if (Either.isLeft(figures)) return Either.left([figures.left, book] as const)
  const [blocks, slow] = take(book.faults.slow)
  const [percent, underDeliver] = take(book.faults.underDeliver)
  const [willFail, fail] = take(book.faults.fail)
  const order: BookOrder = {
    ...request,
    providerOrderId: `SIM${String(book.orders.length + 1).padStart(8, "0")}`,
    delegatedEnergy: Option.match(percent, { onNone: () => request.energy, onSome: (p) => (request.energy * BigInt(p)) / 100n }),
    pricePerEnergy: figures.right.pricePerEnergy,
    activationCost: figures.right.activationCost,
    durationMs: figures.right.durationMs,
    createdAt: now,
    deliverAfter: head + BigInt(Option.getOrElse(blocks, () => 0)),
    willFail,
    failed: Option.none(),
    activationTxid: Option.none(),
    delegateTxid: Option.none(),
    undelegateTxid: Option.none()
  }
  const faults = { ...book.faults, slow, underDeliver, fail }
  return Either.right([order, { ...book, orders: [...book.orders, order], faults }] as const)
}

/** Uses up one lost answer, if one is armed. */
export const loseAnswer = (book: ProviderBook): readonly [Option.Option<LostAnswer>, ProviderBook] => {
  const [lost, unknown] = take(book.faults.unknown)
  return [lost, { ...book, faults: { ...book.faults, unknown } }] as const
}

export const updateOrder = (book: ProviderBook, orderNo: string, f: (order: BookOrder) => BookOrder): ProviderBook => ({
  ...book,
  orders: book.orders.map((order) => (order.orderNo === orderNo ? f(order) : order))
})
