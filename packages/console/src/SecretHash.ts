import { createHash } from "node:crypto"

/** SHA-256 of a secret's text: what the store keeps of a token or a session, never the text. */
export const secretHash = (secret: string): Uint8Array => new Uint8Array(createHash("sha256").update(secret, "utf8").digest())

/**
 * A form's anti-CSRF token for a session: derived from the session's secret, which only the
 * browser holding the cookie knows, so a page of another site can neither read nor forge it.
 */
export const csrfTokenOf = (sessionSecret: string): string => createHash("sha256").update(`csrf\u0000${sessionSecret}`, "utf8").digest("base64url")
