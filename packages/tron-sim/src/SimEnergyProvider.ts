import { TronAddress } from "@collector/tron"
import { Clock, Effect, Either, Option, Ref } from "effect"
import { pendingWorld } from "./Broadcast.js"
import {
  type BookOrder,
  defaultProviderSettings,
  emptyBook,
  findOrder,
  loseAnswer,
  type LostAnswer,
  noFaults,
  placeOrder,
  type ProviderBook,
  type ProviderFaults,
  ProviderRefused,
  type ProviderSettings,
  type QuoteFigures,
  quoteFor,
  updateOrder
} from "./ProviderBook.js"
import { type OrderView, viewOf } from "./ProviderOrderView.js"
import { addressHex, type SimChain } from "./SimChain.js"
import { SimControlError } from "./SimErrors.js"
import { head, inclusionOf, type SimState } from "./SimState.js"
import { isActivated } from "./WorldState.js"

/**
 * An energy rental provider living inside the simulated network: it takes orders under the
 * client's own order numbers (the same number twice is the same order), activates receivers with
 * a real TRX transfer, delegates energy with a real DelegateResourceContract from the simulator's
 * provider account, and takes it back with an UnDelegateResourceContract once the rental ran out.
 * It acts just before each block (`advance`, which `driven` runs from `mine`), so blocks and
 * Effect's Clock (TestClock in tests) drive delivery and expiry. Faults armed through the control
 * API make it slow, stingy, failing, refusing, or lose its answers.
 */

export interface QuoteRequest {
  /** Base58Check or 41-hex. */
  readonly receiver: string
  readonly energy: bigint
  readonly activate: boolean
}

export interface Quote extends QuoteFigures {
  readonly receiver: string
  readonly energy: bigint
}

export interface OrderCall extends QuoteRequest {
  readonly orderNo: string
}

/** An order call's result: the order, and whether its answer is to be lost. */
export interface OrderOutcome {
  readonly view: OrderView
  readonly lost: Option.Option<LostAnswer>
}

export type Fault =
  | { readonly kind: "slow"; readonly blocks: number }
  | { readonly kind: "under-deliver"; readonly percent: number }
  | { readonly kind: "fail"; readonly reason: string }
  | { readonly kind: "reject"; readonly reason: string }
  | { readonly kind: "unknown"; readonly lost: LostAnswer }

export interface SimProvider {
  readonly settings: Effect.Effect<ProviderSettings>
  readonly quote: (request: QuoteRequest) => Effect.Effect<Quote, ProviderRefused>
  /** Takes an order, or answers the one already taken under `orderNo`. */
  readonly order: (call: OrderCall) => Effect.Effect<OrderOutcome, ProviderRefused>
  readonly find: (orderNo: string) => Effect.Effect<Option.Option<OrderView>>
  readonly orders: Effect.Effect<ReadonlyArray<OrderView>>
  readonly faults: Effect.Effect<ProviderFaults>
  /** Arms `fault` for the next `count` order calls (default 1). */
  readonly arm: (fault: Fault, count?: number) => Effect.Effect<void, SimControlError>
  readonly setPrice: (sunPerEnergy: bigint) => Effect.Effect<void, SimControlError>
  /** Disarms every fault. */
  readonly reset: Effect.Effect<void>
  /** Delivers what is due and takes back what ran out; runs before each block. */
  readonly advance: Effect.Effect<void>
}

const refused = (code: string, reason: string) => new ProviderRefused({ code, reason })

const orderNumber = /^[A-Za-z0-9_.:-]{1,64}$/

const receiverOf = (receiver: string) =>
  Either.match(addressHex(receiver), {
    onLeft: () => Effect.fail(refused("INVALID_RECEIVER", `not a TRON address: ${receiver}`)),
    onRight: (hex) => Effect.succeed({ hex, base58: Option.getOrElse(TronAddress.fromHex(hex), () => receiver) })
  })

const activatedNow = (state: SimState, hex: string, now: number) => isActivated(pendingWorld(state, now), hex)

export const make = (chain: SimChain, settings: Partial<ProviderSettings> = {}): Effect.Effect<SimProvider> =>
  Effect.gen(function*() {
    const book = yield* Ref.make(emptyBook({ ...defaultProviderSettings, ...settings }))
    const lock = yield* Effect.makeSemaphore(1)
    const locked = lock.withPermits(1)
    const setBook = (next: ProviderBook) => Ref.set(book, next)
    const update = (orderNo: string, f: (order: BookOrder) => BookOrder) => Ref.update(book, (current) => updateOrder(current, orderNo, f))

    const view = (order: BookOrder) => Effect.map(chain.state, (state) => viewOf(order, state))

    const quote: SimProvider["quote"] = (request) =>
      Effect.gen(function*() {
        const receiver = yield* receiverOf(request.receiver)
        const state = yield* chain.state
        const activated = activatedNow(state, receiver.hex, yield* Clock.currentTimeMillis)
        const figures = yield* quoteFor((yield* Ref.get(book)).settings, request.energy, request.activate, activated)
        return { ...figures, receiver: receiver.base58, energy: request.energy }
      })

    const order: SimProvider["order"] = (call) =>
      locked(Effect.gen(function*() {
        if (!orderNumber.test(call.orderNo)) return yield* refused("INVALID_ORDER_NO", "order_no must be 1 to 64 letters, digits or _ . : -")
        const current = yield* Ref.get(book)
        const existing = findOrder(current, call.orderNo)
        if (Option.isSome(existing)) {
          const [lost, next] = loseAnswer(current)
          yield* setBook(next)
          return { view: yield* view(existing.value), lost }
        }
        const receiver = yield* receiverOf(call.receiver)
        const state = yield* chain.state
        const now = yield* Clock.currentTimeMillis
        const request = { orderNo: call.orderNo, receiver: receiver.base58, receiverHex: receiver.hex, energy: call.energy, activate: call.activate }
        const placed = placeOrder(current, request, activatedNow(state, receiver.hex, now), now, head(state).number)
        if (Either.isLeft(placed)) {
          yield* setBook(placed.left[1])
          return yield* placed.left[0]
        }
        const [lost, next] = loseAnswer(placed.right[1])
        yield* setBook(next)
        return { view: viewOf(placed.right[0], state), lost }
      }))

    /** Activates the receiver if it still needs it, then delegates; a refusal of the chain fails the order. */
    const deliver = (order: BookOrder) =>
      Effect.gen(function*() {
        const state = yield* chain.state
        if (Option.isSome(order.failed) || Option.isSome(order.delegateTxid) || head(state).number < order.deliverAfter) return
        if (Option.isSome(order.willFail)) return yield* update(order.orderNo, (o) => ({ ...o, failed: o.willFail }))
        if (order.activationCost > 0n) {
          if (activatedNow(state, order.receiverHex, yield* Clock.currentTimeMillis)) {
            yield* update(order.orderNo, (o) => ({ ...o, activationCost: 0n }))
          } else {
            const amount = (yield* Ref.get(book)).settings.activationAmount
            const sent = yield* Effect.either(chain.transferTrx({ from: state.provider.address, to: order.receiver, amount }))
            if (Either.isLeft(sent)) return yield* update(order.orderNo, (o) => ({ ...o, failed: Option.some(`activation failed: ${sent.left.reason}`) }))
            yield* update(order.orderNo, (o) => ({ ...o, activationTxid: Option.some(sent.right) }))
          }
        }
        const delegated = yield* Effect.either(chain.delegateEnergy(order.receiver, order.delegatedEnergy))
        yield* update(order.orderNo, (o) =>
          Either.match(delegated, {
            onLeft: (error) => ({ ...o, failed: Option.some(`delegation failed: ${error.reason}`) }),
            onRight: (txid) => ({ ...o, delegateTxid: Option.some(txid) })
          }))
      })

    /** Undelegates a delivered rental whose time is up. */
    const expire = (order: BookOrder) =>
      Effect.gen(function*() {
        if (Option.isNone(order.delegateTxid) || Option.isSome(order.undelegateTxid)) return
        const included = inclusionOf(yield* chain.state, order.delegateTxid.value)
        if (Option.isNone(included) || (yield* Clock.currentTimeMillis) < included.value.block.timestamp + order.durationMs) return
        const txid = yield* Effect.either(chain.undelegateEnergy(order.receiver, order.delegatedEnergy))
        if (Either.isRight(txid)) yield* update(order.orderNo, (o) => ({ ...o, undelegateTxid: Option.some(txid.right) }))
      })

    const current = (orderNo: string) => Effect.map(Ref.get(book), (b) => findOrder(b, orderNo))

    const advance = locked(Effect.gen(function*() {
      for (const { orderNo } of (yield* Ref.get(book)).orders) {
        const before = yield* current(orderNo)
        if (Option.isSome(before)) yield* deliver(before.value)
        const after = yield* current(orderNo)
        if (Option.isSome(after)) yield* expire(after.value)
      }
    }))

    const arm: SimProvider["arm"] = (fault, count = 1) => {
      if (!Number.isInteger(count) || count < 1) return Effect.fail(new SimControlError({ reason: `count must be a positive integer, got ${count}` }))
      const armed = <A>(value: A) => Option.some({ value, remaining: count })
      return locked(Ref.update(book, (b) => {
        switch (fault.kind) {
          case "slow":
            return { ...b, faults: { ...b.faults, slow: armed(fault.blocks) } }
          case "under-deliver":
            return { ...b, faults: { ...b.faults, underDeliver: armed(fault.percent) } }
          case "fail":
            return { ...b, faults: { ...b.faults, fail: armed(fault.reason) } }
          case "reject":
            return { ...b, faults: { ...b.faults, reject: armed(fault.reason) } }
          case "unknown":
            return { ...b, faults: { ...b.faults, unknown: armed(fault.lost) } }
        }
      }))
    }

    return {
      settings: Effect.map(Ref.get(book), (b) => b.settings),
      quote,
      order,
      find: (orderNo) => Effect.flatMap(current(orderNo), Option.match({ onNone: () => Effect.succeed(Option.none()), onSome: (o) => Effect.map(view(o), Option.some) })),
      orders: Effect.flatMap(Ref.get(book), (b) => Effect.map(chain.state, (state) => b.orders.map((o) => viewOf(o, state)))),
      faults: Effect.map(Ref.get(book), (b) => b.faults),
      arm,
      setPrice: (sun) =>
        sun > 0n
          ? locked(Ref.update(book, (b) => ({ ...b, settings: { ...b.settings, pricePerEnergy: sun } })))
          : Effect.fail(new SimControlError({ reason: `price must be positive, got ${sun}` })),
      reset: locked(Ref.update(book, (b) => ({ ...b, faults: noFaults }))),
      advance
    }
  })

/** The chain with the provider at work: every block `mine` produces is preceded by `advance`. */
export const driven = (chain: SimChain, provider: SimProvider): SimChain => ({
  ...chain,
  mine: (count = 1) =>
    Effect.gen(function*() {
      const blocks = []
      for (let i = 0; i < count; i++) {
        yield* provider.advance
        blocks.push(...(yield* chain.mine(1)))
      }
      return blocks
    })
})
