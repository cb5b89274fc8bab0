import { Context, Data, Effect, Layer, Pool, Redacted, type Scope } from "effect"
import pkcs11js from "pkcs11js"
import { isSessionLost, Pkcs11Unavailable, returnValueOf } from "./Pkcs11Failure.js"
import type { Pkcs11Settings } from "./Pkcs11Settings.js"

/** A Cryptoki call that failed, by its return value's name (never the module's message). */
export class TokenCallFailed extends Data.TaggedError("TokenCallFailed")<{ readonly returnValue: string }> {}

/** A logged-in session and the module it belongs to. */
export interface TokenSession {
  readonly module: pkcs11js.PKCS11
  readonly handle: pkcs11js.Handle
}

/**
 * The token holding the wallet keys: a pool of logged-in sessions over one loaded module. A
 * session runs one operation at a time (PKCS#11 keeps a signing operation's state per session),
 * so the pool's size bounds concurrent signatures and key generations.
 */
export class Pkcs11Token extends Context.Tag("@collector/pkcs11/Pkcs11Token")<
  Pkcs11Token,
  {
    /** "token <label> in slot <id> (<manufacturer> <model>)", for the start line and readiness. */
    readonly description: string
    /**
     * Runs `use` on a pooled session. When the session turns out lost (closed, logged out, the
     * token removed), it is dropped and `use` runs again, at most once per pooled session and once
     * on a fresh one; then the failure stands (a per-task reason for the sweeper to retry later).
     */
    readonly withSession: <A>(use: (session: TokenSession) => Effect.Effect<A, TokenCallFailed>) => Effect.Effect<A, TokenCallFailed>
    /** A cheap round trip to the token (C_GetSessionInfo on a pooled session), for readiness. */
    readonly probe: Effect.Effect<void, TokenCallFailed>
  }
>() {}

/** Runs one Cryptoki call, turning its failure into the return value's name. */
export const call = <A>(f: () => A): Effect.Effect<A, TokenCallFailed> =>
  Effect.try({ try: f, catch: (error) => new TokenCallFailed({ returnValue: returnValueOf(error) }) })

/** Runs one asynchronous Cryptoki call (on libuv's pool, off the event loop). */
export const callAsync = <A>(f: () => Promise<A>): Effect.Effect<A, TokenCallFailed> =>
  Effect.tryPromise({ try: f, catch: (error) => new TokenCallFailed({ returnValue: returnValueOf(error) }) })

const trimmed = (text: string) => text.replace(/\0/g, "").trim()

// Opens per module path in this process: the module's library state is per process, so a second
// open (the API's and the worker's store in one process, or two tests) shares its initialisation
// and only the last close finalises it.
const opens = new Map<string, number>()

const unavailable = (reason: string) => new Pkcs11Unavailable({ reason })

/** Loads the module, finds the token and checks the PIN once, then opens the session pool. */
export const open = (settings: Pkcs11Settings): Effect.Effect<Pkcs11Token["Type"], Pkcs11Unavailable, Scope.Scope> =>
  Effect.gen(function*() {
    const module = new pkcs11js.PKCS11()
    yield* Effect.try({
      try: () => module.load(settings.module),
      // dlopen's first line names the path and the reason (no such file, wrong architecture).
      catch: (error) => unavailable(`PKCS11_MODULE ${settings.module} cannot be loaded: ${String((error as Error).message ?? error).split("\n")[0]}`)
    })
    yield* Effect.acquireRelease(
      Effect.mapError(
        // OS locking: the module is called from libuv's threads when signing asynchronously.
        call(() => module.C_Initialize({ flags: pkcs11js.CKF_OS_LOCKING_OK })).pipe(
          Effect.catchIf((failed) => failed.returnValue === "CKR_CRYPTOKI_ALREADY_INITIALIZED" && (opens.get(settings.module) ?? 0) > 0, () => Effect.void),
          Effect.tap(() => Effect.sync(() => opens.set(settings.module, (opens.get(settings.module) ?? 0) + 1)))
        ),
        (failed) => unavailable(`the PKCS#11 module ${settings.module} did not initialise (${failed.returnValue})`)
      ),
      () => Effect.sync(() => {
        const left = (opens.get(settings.module) ?? 1) - 1
        opens.set(settings.module, left)
        if (left > 0) return
        try {
          module.C_Finalize()
          module.close()
        } catch {
          // Already finalised or unloaded: nothing is left to release.
        }
      })
    )
    const slots = yield* Effect.mapError(call(() => module.C_GetSlotList(true)), (failed) => unavailable(`the PKCS#11 module lists no slots (${failed.returnValue})`))
    const tokens = yield* Effect.forEach(slots, (slot) =>
      Effect.map(Effect.orElseSucceed(call(() => module.C_GetTokenInfo(slot)), () => undefined), (info) => ({ slot, info })))
    const wanted = "label" in settings.token ? `labelled "${settings.token.label}"` : `in slot ${settings.token.slot}`
    const found = tokens.find(({ info, slot }) =>
      info !== undefined && ("label" in settings.token ? trimmed(info.label) === settings.token.label : slot.readBigUInt64LE(0) === settings.token.slot))
    if (found === undefined || found.info === undefined) {
      const present = tokens.flatMap(({ info }) => (info === undefined ? [] : [`"${trimmed(info.label)}"`])).join(", ")
      return yield* Effect.fail(unavailable(`no PKCS#11 token ${wanted} is present (tokens present: ${present === "" ? "none" : present})`))
    }
    const { slot, info } = found
    const description = `token "${trimmed(info.label)}" in slot ${slot.readBigUInt64LE(0)} (${trimmed(info.manufacturerID)} ${trimmed(info.model)})`

    const pin = Redacted.value(settings.pin)
    const openSession = Effect.acquireRelease(
      Effect.gen(function*() {
        const handle = yield* call(() => module.C_OpenSession(slot, pkcs11js.CKF_SERIAL_SESSION | pkcs11js.CKF_RW_SESSION))
        // The login is the application's, shared by its sessions: a second session finds it done.
        yield* call(() => module.C_Login(handle, pkcs11js.CKU_USER, pin)).pipe(
          Effect.catchIf((failed) => failed.returnValue === "CKR_USER_ALREADY_LOGGED_IN", () => Effect.void),
          Effect.tapError(() => Effect.sync(() => module.C_CloseSession(handle)))
        )
        return { module, handle }
      }),
      (session) => Effect.sync(() => {
        try {
          module.C_CloseSession(session.handle)
        } catch {
          // A lost session is already closed.
        }
      })
    )

    // The PIN is tried exactly once at start: a wrong PIN retried by every pooled session would
    // spend the token's tries and lock the user PIN on a real HSM.
    yield* Effect.scoped(openSession).pipe(
      Effect.mapError((failed) =>
        failed.returnValue === "CKR_PIN_INCORRECT" || failed.returnValue === "CKR_PIN_LEN_RANGE"
          ? unavailable(`the PIN for PKCS#11 ${description} was refused (${failed.returnValue})`)
          : failed.returnValue === "CKR_PIN_LOCKED"
          ? unavailable(`the user PIN of PKCS#11 ${description} is locked (${failed.returnValue})`)
          : unavailable(`no session could be opened on PKCS#11 ${description} (${failed.returnValue})`))
    )
    const pool = yield* Pool.make({ acquire: openSession, size: settings.sessions })

    const once = <A>(use: (session: TokenSession) => Effect.Effect<A, TokenCallFailed>) =>
      Effect.scoped(Effect.flatMap(Pool.get(pool), (session) =>
        use(session).pipe(Effect.tapError((failed) => isSessionLost(failed) ? Pool.invalidate(pool, session) : Effect.void))))

    // A lost session usually means all were lost (the token was reset, removed or logged out),
    // so up to one try per pooled session plus a fresh one: each failure drops the session it used.
    const withSession = <A>(use: (session: TokenSession) => Effect.Effect<A, TokenCallFailed>) =>
      once(use).pipe(Effect.retry({ while: isSessionLost, times: settings.sessions }))

    return {
      description,
      withSession,
      probe: withSession((session) => Effect.asVoid(call(() => session.module.C_GetSessionInfo(session.handle))))
    }
  })

export const layer = (settings: Pkcs11Settings): Layer.Layer<Pkcs11Token, Pkcs11Unavailable> => Layer.scoped(Pkcs11Token, open(settings))
