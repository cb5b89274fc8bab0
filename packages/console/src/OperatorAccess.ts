import { Kernel, Operators } from "@collector/core"
import { Clock, Context, Effect, Encoding, Layer, Option } from "effect"
import { OperatorTokenNotFound, OperatorTokenRefused } from "./OperatorAccessErrors.js"
import { secretHash } from "./SecretHash.js"

/** How long a token lasts unless told (`operator token create --ttl`). */
export const defaultTokenTtlDays = 30
/** A browser session lasts a working shift; the operator logs in again with the token after. */
export const sessionTtlMillis = 12 * 60 * 60 * 1000
const dayMillis = 24 * 60 * 60 * 1000

/** Who is asking: the credential presented and the token it stands for (the audit's identity). */
export interface Operator {
  readonly credential: Operators.OperatorCredential
  readonly tokenId: string
}

const make = Effect.gen(function*() {
  const repository = yield* Operators.OperatorTokenRepository
  const entropy = yield* Kernel.Entropy
  const now = Effect.map(Clock.currentTimeMillis, (millis) => new Date(millis))
  const newSecret = (prefix: string) => Effect.map(entropy.bytes(32), (bytes) => `${prefix}${Encoding.encodeBase64Url(bytes)}`)

  const authenticate = (secret: string) =>
    Effect.gen(function*() {
      const found = yield* repository.findByHash(secretHash(secret))
      if (Option.isNone(found)) return Option.none<Operator>()
      const credential = found.value
      const token = credential.kind === "token" ? credential : Option.getOrUndefined(yield* repository.get(credential.tokenId))
      return Operators.credentialUsable(credential, token, yield* now) ? Option.some({ credential, tokenId: credential.tokenId }) : Option.none<Operator>()
    })

  return {
    /** A new token lasting `ttlDays`; its text is returned once and only its hash is stored. */
    createToken: (ttlDays: number = defaultTokenTtlDays) =>
      Effect.gen(function*() {
        const token = yield* newSecret("opt_")
        const expiresAt = new Date((yield* now).getTime() + ttlDays * dayMillis)
        const credential = yield* repository.insert(secretHash(token), { kind: "token", tokenId: null, expiresAt })
        return { token, credential }
      }),
    listTokens: repository.listTokens(1000),
    /** Revokes the token and with it every session opened with it; revoking again changes nothing. */
    revokeToken: (id: string) =>
      Effect.gen(function*() {
        const found = yield* repository.get(id)
        if (Option.isNone(found) || found.value.kind !== "token") return yield* new OperatorTokenNotFound({ id })
        const revoked = yield* repository.revoke(id, yield* now)
        return Option.getOrElse(revoked, () => found.value)
      }),
    /** Ends a session (log-out); its token and other sessions stay. */
    endSession: (id: string) => Effect.flatMap(now, (at) => repository.revoke(id, at)).pipe(Effect.asVoid),
    /** Whether `secret` (a token or a session) lets its bearer in now. */
    authenticate,
    /** A browser session for a usable token (the login form); never longer than the token lasts. */
    openSession: (token: string) =>
      Effect.gen(function*() {
        const operator = yield* authenticate(token)
        if (Option.isNone(operator) || operator.value.credential.kind !== "token") return yield* new OperatorTokenRefused()
        const session = yield* newSecret("ops_")
        const expiresAt = new Date(Math.min((yield* now).getTime() + sessionTtlMillis, operator.value.credential.expiresAt.getTime()))
        const credential = yield* repository.insert(secretHash(session), { kind: "session", tokenId: operator.value.tokenId, expiresAt })
        return { session, credential }
      })
  } as const
})

/** Operator tokens and console sessions: made, checked, revoked. */
export class OperatorAccess extends Context.Tag("@collector/console/OperatorAccess")<OperatorAccess, Effect.Effect.Success<typeof make>>() {
  static readonly layer = Layer.effect(OperatorAccess, make)
}
