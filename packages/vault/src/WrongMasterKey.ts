import type { Secrets } from "@collector/core"
import { Data } from "effect"

/** The master keys at hand are not the store's; the message is a process's one start failure line. */
export class WrongMasterKey extends Data.TaggedError("WrongMasterKey")<{ readonly message: string }> {}

const ids = (keyIds: ReadonlyArray<string>) => keyIds.map((id) => JSON.stringify(id)).join(", ")

/**
 * The mismatch in one line naming both variables, where the current key came from (`origin`, as
 * the keyring says) and the key id that would open the store; key ids only, never key material.
 */
export const wrongMasterKey = (mismatch: Secrets.MasterKeyMismatch, origin: string): WrongMasterKey =>
  new WrongMasterKey({
    message: `the master key opens none of the stored sealed values (sealed under key id ${ids(mismatch.sealedUnder)}): ` +
      `the current key (id ${JSON.stringify(mismatch.currentKeyId)}) comes from ${origin}, and MASTER_KEY_PREVIOUS ` +
      (mismatch.previousKeyIds.length === 0 ? "is not set" : `holds key id ${ids(mismatch.previousKeyIds)}`) +
      "; set MASTER_KEY to the key that sealed them, or list that key in MASTER_KEY_PREVIOUS"
  })
