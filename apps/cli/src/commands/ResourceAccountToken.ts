import type * as Pkcs11 from "@collector/pkcs11"
import { Data, Effect, type Scope } from "effect"
import { UsageError } from "../CliError.js"

/** The PKCS#11 token could not be used (module, token or PIN): its reason, exit 1. */
export class TokenUnavailable extends Data.TaggedError("TokenUnavailable")<{ readonly message: string }> {}

/** The adapter's package (imported, its types only named here), the token's settings and the opened token. */
export interface OpenedToken {
  readonly pkcs11: typeof Pkcs11
  readonly settings: Pkcs11.Pkcs11Settings.Pkcs11Settings
  readonly token: Pkcs11.Pkcs11Token.Pkcs11Token["Type"]
}

/**
 * The PKCS#11 token of PKCS11_MODULE, PKCS11_TOKEN_LABEL|PKCS11_SLOT, PKCS11_PIN(_FILE) and
 * PKCS11_LABEL_PREFIX, read as the service reads them, so the CLI makes and uses keys in the
 * token the worker signs with. Opened for the one command (closed with its scope) on a single
 * session: one key generation or signature needs no more. The adapter's package (and its
 * native addon) is imported only here, so an installation without an HSM never loads it.
 */
export const openToken: Effect.Effect<OpenedToken, UsageError | TokenUnavailable, Scope.Scope> = Effect.gen(function*() {
  const pkcs11 = yield* Effect.tryPromise({
    try: () => import("@collector/pkcs11"),
    catch: () => new TokenUnavailable({ message: "a key in a PKCS#11 token needs the package @collector/pkcs11 (npm install @collector/pkcs11; it builds the pkcs11js addon)" })
  })
  const settings = yield* pkcs11.Pkcs11Settings.pkcs11Config.pipe(Effect.mapError((error) => new UsageError({ message: String(error) })))
  const token = yield* pkcs11.Pkcs11Token.open({ ...settings, sessions: 1 }).pipe(Effect.mapError((failed) => new TokenUnavailable({ message: failed.reason })))
  return { pkcs11, settings, token }
})
