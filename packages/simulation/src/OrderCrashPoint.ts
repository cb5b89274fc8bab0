import { Energy, type Engine } from "@collector/core"
import { Effect, Layer } from "effect"

/** The checkpoint right after an order call answered, before the sweeper records the answer. */
export const afterOrderCall = "provider:order-answered"

/**
 * A worker's energy provider with a checkpoint after each order call that came back (an order,
 * a refusal, an unknown outcome): a crash there is a power cut between the provider's answer and
 * our recording of it, which a restarted worker must resolve by the task's own order number.
 */
export const checkpointAfterOrder = (checkpoint: Engine.Checkpoint) =>
  Layer.effect(
    Energy.EnergyProvider,
    Effect.map(Energy.EnergyProvider, (provider) => ({
      ...provider,
      order: (orderId: string, request: Parameters<typeof provider.order>[1]) =>
        provider.order(orderId, request).pipe(
          Effect.tapBoth({ onSuccess: () => checkpoint(afterOrderCall), onFailure: () => checkpoint(afterOrderCall) })
        )
    }))
  )
