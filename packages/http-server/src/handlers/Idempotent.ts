import { paramsDigest } from "@collector/api"
import { Idempotency } from "@collector/core"
import { Effect, FiberRef, type Schema } from "effect"
import { currentBody } from "../gate/RequestContext.js"

/**
 * Runs a write once per (tenant, network, operation, request_id); the digest covers the body
 * as the gate parsed it, without request_id, keys sorted.
 */
export const idempotentWrite = <A, AI, B, BI, E, R>(
  key: Omit<Idempotency.IdempotencyKey, "requestId"> & { readonly requestId: string },
  schemas: { readonly success: Schema.Schema<A, AI>; readonly rejection: Schema.Schema<B, BI> },
  work: Effect.Effect<A, B | E, R>
) => Effect.flatMap(FiberRef.get(currentBody), (body) => Idempotency.idempotent(key, paramsDigest(body), schemas, work))

/** The wrapper a write handler runs its work in (`idempotentWrite`); a parameter only so that a simulated slip can leave it out. */
export type IdempotentWrapper = typeof idempotentWrite
