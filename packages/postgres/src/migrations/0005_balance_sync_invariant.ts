import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  // Filters, sorts and sums read NULL as "not synchronised", the API reads balance_block = 0:
  // the two must never disagree, whatever writes the balances.
  yield* sql`
    ALTER TABLE wallets ADD CONSTRAINT wallets_balances_follow_sync
      CHECK ((balance_block = 0) = (balance_usdt IS NULL) AND (balance_block = 0) = (balance_trx IS NULL))`
})
