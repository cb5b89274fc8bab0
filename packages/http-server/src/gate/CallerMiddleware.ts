import { Authenticated, Signed } from "@collector/api"
import { Effect, FiberRef, Layer, Option } from "effect"
import { currentApp } from "./RequestContext.js"

// The gate has already authenticated the request; these only hand its result to handlers.
const caller = Effect.flatMap(FiberRef.get(currentApp), Option.match({
  onNone: () => Effect.dieMessage("an authenticated operation was reached without passing the request gate"),
  onSome: Effect.succeed
}))

export const AuthenticatedLive = Layer.succeed(Authenticated, caller)
export const SignedLive = Layer.succeed(Signed, caller)
