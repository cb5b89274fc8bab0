/**
 * What an operator presents to the console: a token made by the CLI, or a browser session opened
 * with one. A session belongs to its token: revoking the token ends its sessions too.
 */
export type OperatorCredentialKind = "token" | "session"

export interface OperatorCredential {
  readonly id: string
  readonly kind: OperatorCredentialKind
  /** The operator token this credential stands for: its own ID for a token, its token's for a session. */
  readonly tokenId: string
  readonly createdAt: Date
  readonly expiresAt: Date
  readonly revokedAt: Date | null
}

/**
 * Whether `credential` lets its bearer in at `now`: not expired, not revoked, and (for a session)
 * its token neither. `token` is the credential's token as stored (itself, for a token).
 */
export const credentialUsable = (credential: OperatorCredential, token: OperatorCredential | undefined, now: Date): boolean =>
  [credential, token].every((c) => c !== undefined && c.revokedAt === null && c.expiresAt.getTime() > now.getTime())
