import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

/**
 * Each wallet's key store: `local` rows keep their sealed key, `pkcs11` rows hold only the
 * label of the private key object inside the token (no key material at all). Existing rows are
 * local. The check makes a row carry exactly one of the two, and a token label belongs to one
 * wallet only, so two wallets can never sign with the same key.
 */
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    ALTER TABLE wallet_keys
      ADD COLUMN store text NOT NULL DEFAULT 'local',
      ADD COLUMN key_label text,
      ALTER COLUMN key_id DROP NOT NULL,
      ALTER COLUMN sealed_key DROP NOT NULL,
      ADD CONSTRAINT wallet_keys_one_store CHECK (
        (store = 'local' AND key_id IS NOT NULL AND sealed_key IS NOT NULL AND key_label IS NULL)
        OR (store = 'pkcs11' AND key_id IS NULL AND sealed_key IS NULL AND key_label IS NOT NULL)
      )`
  yield* sql`CREATE UNIQUE INDEX wallet_keys_label ON wallet_keys (key_label) WHERE key_label IS NOT NULL`
})
