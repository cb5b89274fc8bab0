import { Context, type Effect } from "effect"

/**
 * Port: seals a stored payload into the contract's webhook envelope (docs/notifications.md) under an app's
 * 32-byte webhook key, with a fresh nonce on every call. Returns the request body text.
 */
export class EnvelopeSealer extends Context.Tag("@collector/core/EnvelopeSealer")<
  EnvelopeSealer,
  { readonly seal: (key: Uint8Array, payload: string, timestamp: string) => Effect.Effect<string> }
>() {}
