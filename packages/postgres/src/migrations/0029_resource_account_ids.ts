import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

/**
 * A row id for each resource account: a re-seal under a new master key walks every sealed value
 * by column and int64 row id, and a resource account's locally sealed key is one of them; the
 * walk's saved place may now be in that column.
 */
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`ALTER TABLE resource_accounts ADD COLUMN id bigint GENERATED ALWAYS AS IDENTITY`
  yield* sql`ALTER TABLE resource_accounts ADD CONSTRAINT resource_accounts_id UNIQUE (id)`
  yield* sql`ALTER TABLE reseal_progress DROP CONSTRAINT reseal_progress_after_column_check`
  yield* sql`
    ALTER TABLE reseal_progress ADD CONSTRAINT reseal_progress_after_column_check CHECK (after_column IN (
      'master_key_check.sealed', 'apps.secret_sealed', 'apps.webhook_key_sealed', 'wallet_keys.sealed_key',
      'resource_accounts.sealed_key'))`
})
