import { HttpServerRequest } from "@effect/platform"
import { Effect, Option } from "effect"
import { type Operator, OperatorAccess } from "./OperatorAccess.js"
import { csrfTokenOf } from "./SecretHash.js"

export const sessionCookie = "collector_console"

/** Who made the request and how: a browser session (whose forms carry `csrf`) or a bearer token. */
export interface ConsoleCaller {
  readonly operator: Operator
  /** The anti-CSRF token a session's forms must carry; none for a bearer request, which no other site can make. */
  readonly csrf: Option.Option<string>
  /** The session cookie's secret, to end the session at log-out. */
  readonly presented: "session" | "bearer"
}

const bearerOf = (header: string | undefined) => {
  const match = header === undefined ? null : /^Bearer ([A-Za-z0-9_-]{1,200})$/.exec(header.trim())
  return match === null ? undefined : match[1]
}

/**
 * The caller of the current request, if any credential it carries is usable now. A bearer token
 * wins over a cookie; a request that sends a bad `Authorization` is refused even with a cookie.
 */
export const currentCaller = Effect.gen(function*() {
  const request = yield* HttpServerRequest.HttpServerRequest
  const access = yield* OperatorAccess
  const authorization = request.headers["authorization"]
  if (authorization !== undefined) {
    const token = bearerOf(authorization)
    if (token === undefined) return Option.none<ConsoleCaller>()
    const operator = yield* access.authenticate(token)
    return Option.map(operator, (op): ConsoleCaller => ({ operator: op, csrf: Option.none(), presented: "bearer" }))
  }
  const session = request.cookies[sessionCookie]
  if (session === undefined || !/^ops_[A-Za-z0-9_-]{1,100}$/.test(session)) return Option.none<ConsoleCaller>()
  const operator = yield* access.authenticate(session)
  return Option.flatMap(operator, (op) =>
    op.credential.kind === "session" ? Option.some<ConsoleCaller>({ operator: op, csrf: Option.some(csrfTokenOf(session)), presented: "session" }) : Option.none())
})
