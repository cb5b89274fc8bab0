import { Duration, Effect, Either, Option } from "effect"
import {
  type EnergyProviderService,
  type ProviderOrder,
  ProviderRejected,
  ProviderUnavailable,
  type RentalQuote,
  type RentalRequest
} from "./EnergyProvider.js"
import { makeProviderHealth } from "./ProviderHealth.js"

export interface RankedProvidersOptions {
  /** How long a quote or a lookup may take before the provider counts as not answering. */
  readonly answerTimeout: Duration.DurationInput
  /** How long a provider that failed is skipped. */
  readonly coolDown: Duration.DurationInput
}

export const defaultRankedProvidersOptions: RankedProvidersOptions = { answerTimeout: Duration.seconds(5), coolDown: Duration.minutes(5) }

const sizedFor = (provider: EnergyProviderService, request: RentalRequest): RentalRequest => ({
  receiver: request.receiver,
  activate: request.activate,
  energy: request.energy > provider.minimumEnergy ? request.energy : provider.minimumEnergy
})

const total = (quote: RentalQuote) => quote.cost + quote.activationCost

const joined = (failures: ReadonlyArray<{ readonly name: string; readonly reason: string }>) =>
  failures.map((f) => `${f.name}: ${f.reason}`).join("; ")

/**
 * The EnergyProvider port over an ordered list of providers (the operator's preference order).
 *
 * - `quote` asks every provider that is not resting (all of them when every one rests), in
 *   parallel and each within `answerTimeout`, and answers the cheapest quote (energy plus
 *   activation; a tie goes to the earlier provider) naming its provider. One that does not answer
 *   rests for `coolDown`, so the next sweep is quoted by the others.
 * - `order` goes to the provider the task's quote named (`RentalRequest.provider`) and to no
 *   other: the task's order number is written before the call, and a crash or a lost answer is
 *   recovered by sending that number to that provider again (each provider takes a number at most
 *   once). Moving the same number to a second provider could leave two paid orders when the first
 *   had taken it after all. A provider that refuses or does not answer rests, so the next task
 *   (a new number) is quoted and ordered elsewhere.
 * - `find` asks the provider the order went to when this process sent it, otherwise every
 *   provider: an order found anywhere is the task's order.
 * - `reportFault` (the sweeper saw a failed or short delivery on chain) rests that provider.
 */
export const rankedEnergyProviders = (
  providers: ReadonlyArray<EnergyProviderService>,
  options: RankedProvidersOptions = defaultRankedProvidersOptions
): Effect.Effect<EnergyProviderService> =>
  Effect.gen(function*() {
    const health = yield* makeProviderHealth(options.coolDown)
    const names = providers.map((p) => p.name)
    const name = `ranked(${names.join(", ")})`
    // Where this process sent each order number, so `find` asks the one provider that has it.
    const sentTo = new Map<string, EnergyProviderService>()

    const withinTime = <A, E>(provider: EnergyProviderService, what: string, effect: Effect.Effect<A, E | ProviderUnavailable>) =>
      Effect.timeoutFail(effect, {
        duration: options.answerTimeout,
        onTimeout: () => new ProviderUnavailable({ reason: `${provider.name}: no ${what} within ${Duration.format(Duration.decode(options.answerTimeout))}` })
      })

    const quote: EnergyProviderService["quote"] = (request) =>
      Effect.gen(function*() {
        const able = providers.filter((p) => !request.activate || p.supportsActivation)
        if (able.length === 0) {
          return yield* new ProviderRejected({ reason: `none of ${names.join(", ")} can activate a wallet` })
        }
        const awake = yield* Effect.filter(able, (p) => Effect.map(health.isResting(p.name), (resting) => !resting))
        const asked = awake.length === 0 ? able : awake
        const answers = yield* Effect.forEach(asked, (p) => Effect.either(withinTime(p, "quote", p.quote(sizedFor(p, request)))), { concurrency: "unbounded" })
        let best: { readonly provider: EnergyProviderService; readonly quote: RentalQuote } | undefined
        const unavailable: Array<{ name: string; reason: string }> = []
        const rejected: Array<{ name: string; reason: string }> = []
        for (const [i, answer] of answers.entries()) {
          const provider = asked[i]!
          if (Either.isRight(answer)) {
            if (best === undefined || total(answer.right) < total(best.quote)) best = { provider, quote: answer.right }
          } else if (answer.left._tag === "ProviderUnavailable") {
            unavailable.push({ name: provider.name, reason: answer.left.reason })
            yield* health.fault(provider.name, `quote: ${answer.left.reason}`)
          } else {
            rejected.push({ name: provider.name, reason: answer.left.reason })
          }
        }
        if (best !== undefined) return { ...best.quote, provider: best.provider.name }
        if (unavailable.length > 0) return yield* new ProviderUnavailable({ reason: joined([...unavailable, ...rejected]) })
        return yield* new ProviderRejected({ reason: joined(rejected) })
      })

    const order: EnergyProviderService["order"] = (orderId, request) =>
      Effect.gen(function*() {
        const target = request.provider === undefined && providers.length === 1 ? providers[0] : providers.find((p) => p.name === request.provider)
        if (target === undefined) {
          // Unknown outcome rather than a refusal: the number may have reached a provider no longer listed.
          return yield* new ProviderUnavailable({
            reason: `order ${orderId} belongs to energy provider "${request.provider ?? "(none named)"}", which is not among ${names.join(", ")}`
          })
        }
        const placed = yield* Effect.either(target.order(orderId, sizedFor(target, request)))
        if (Either.isRight(placed)) {
          sentTo.set(orderId, target)
          return placed.right
        }
        yield* health.fault(target.name, `order ${orderId}: ${placed.left.reason}`)
        const reason = `${target.name}: ${placed.left.reason}`
        if (placed.left._tag === "ProviderRejected") return yield* new ProviderRejected({ reason })
        // The answer was lost: the provider may have taken the order, so it is looked up there at once.
        const found = yield* Effect.either(withinTime(target, "order lookup", target.find(orderId)))
        if (Either.isRight(found) && Option.isSome(found.right)) {
          sentTo.set(orderId, target)
          return found.right.value
        }
        return yield* new ProviderUnavailable({ reason })
      })

    const find: EnergyProviderService["find"] = (orderId) =>
      Effect.gen(function*() {
        const known = sentTo.get(orderId)
        const asked = known === undefined ? providers : [known]
        const answers = yield* Effect.forEach(asked, (p) => Effect.either(withinTime(p, "order lookup", p.find(orderId))), { concurrency: "unbounded" })
        const failures: Array<{ name: string; reason: string }> = []
        for (const [i, answer] of answers.entries()) {
          if (Either.isLeft(answer)) failures.push({ name: asked[i]!.name, reason: answer.left.reason })
          else if (Option.isSome(answer.right)) {
            sentTo.set(orderId, asked[i]!)
            return answer.right
          }
        }
        if (failures.length > 0) return yield* new ProviderUnavailable({ reason: joined(failures) })
        return Option.none<ProviderOrder>()
      })

    return {
      name,
      supportsActivation: providers.some((p) => p.supportsActivation),
      minimumEnergy: providers.reduce((min, p) => (p.minimumEnergy < min ? p.minimumEnergy : min), providers[0]?.minimumEnergy ?? 0n),
      quote,
      order,
      find,
      reportFault: (provider, reason) => (names.includes(provider) ? health.fault(provider, reason) : Effect.void),
      health: Effect.map(health.resting, (rests) =>
        names.map((provider) => {
          const rest = rests.find((r) => r.provider === provider)
          return { provider, rest: rest === undefined ? null : { until: rest.until, reason: rest.reason } }
        }))
    }
  })
