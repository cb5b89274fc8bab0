import { HttpApiMiddleware } from "@effect/platform"
import { CurrentApp } from "./CurrentApp.js"

/**
 * Marks operations that need the signature headers plus a bearer token. The request gate
 * performs the checks (they need the raw request); this middleware hands the result to handlers.
 */
export class Authenticated extends HttpApiMiddleware.Tag<Authenticated>()("Authenticated", {
  provides: CurrentApp
}) {}

/** Marks the token operation: signature headers only, no bearer token. */
export class Signed extends HttpApiMiddleware.Tag<Signed>()("Signed", {
  provides: CurrentApp
}) {}
