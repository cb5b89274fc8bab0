import { createHash } from "node:crypto"
import { Redacted } from "effect"

/**
 * The service master key: the AES-256 key that seals secrets at rest. The bytes stay
 * `Redacted` so that logging or inspecting a key (or anything holding one) never prints them.
 */
export interface MasterKey {
  /** Public identifier stored beside every sealed value; safe to log. */
  readonly id: string
  readonly bytes: Redacted.Redacted<Uint8Array>
}

/** AES-256 needs exactly 32 key bytes. */
const length = 32

/**
 * First 16 hex chars of SHA-256 of the key: enough to tell keys apart during rotation,
 * while a truncated hash of 256 random bits gives an attacker nothing to work with.
 */
const idOf = (bytes: Uint8Array): string => createHash("sha256").update(bytes).digest("hex").slice(0, 16)

/**
 * Builds a key from exactly 32 bytes; throws otherwise, since callers validate untrusted
 * input first (see MasterKeyConfig) and a wrong length here is a programming error.
 */
const unsafeMake = (bytes: Uint8Array): MasterKey => {
  if (bytes.length !== length) {
    throw new RangeError(`a master key must be exactly ${length} bytes, got ${bytes.length}`)
  }
  // Copy: decoded Buffers may be views into Node's shared allocation pool, and the caller
  // keeps its reference to the original array.
  const own = Uint8Array.from(bytes)
  return { id: idOf(own), bytes: Redacted.make(own) }
}

export const MasterKey = { length, idOf, unsafeMake } as const
