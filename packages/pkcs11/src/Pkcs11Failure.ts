import { Data } from "effect"
import pkcs11js from "pkcs11js"

/**
 * The token cannot be used at all (module missing, token absent, PIN wrong): the service says so
 * in one line at start rather than generating or signing with something else.
 */
export class Pkcs11Unavailable extends Data.TaggedError("Pkcs11Unavailable")<{ readonly reason: string }> {
  override get message() {
    return this.reason
  }
}

// CKR_* names by code, from the binding's own constants: the module's messages are not ours to
// forward (they may name internals), but the return value's name is public and says what failed.
const names = new Map<number, string>(
  Object.entries(pkcs11js).flatMap(([name, value]) => (name.startsWith("CKR_") && typeof value === "number" ? [[value, name] as const] : []))
)

/** The CKR_ name of a Cryptoki error, or a fixed word for anything else (never its message). */
export const returnValueOf = (error: unknown): string => {
  const code = (error as { code?: unknown }).code
  return error instanceof pkcs11js.Pkcs11Error && typeof code === "number" ? names.get(code) ?? `CKR 0x${code.toString(16)}` : "a native error"
}

/** Return values after which the session (or the login it carried) is gone and a new one may work. */
const sessionLost = new Set([
  "CKR_SESSION_HANDLE_INVALID",
  "CKR_SESSION_CLOSED",
  "CKR_USER_NOT_LOGGED_IN",
  "CKR_DEVICE_REMOVED",
  "CKR_DEVICE_ERROR",
  "CKR_TOKEN_NOT_PRESENT",
  "CKR_OBJECT_HANDLE_INVALID",
  "CKR_KEY_HANDLE_INVALID"
])

/** True for a failed call (by its return value's name) after which a fresh session may succeed. */
export const isSessionLost = (failed: { readonly returnValue: string }): boolean => sessionLost.has(failed.returnValue)
