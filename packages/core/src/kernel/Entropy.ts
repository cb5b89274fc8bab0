import { Context, type Effect } from "effect"

/** Port: cryptographically secure random bytes (Effect's Random is not a CSPRNG). */
export class Entropy extends Context.Tag("@collector/core/Entropy")<
  Entropy,
  { readonly bytes: (length: number) => Effect.Effect<Uint8Array> }
>() {}
