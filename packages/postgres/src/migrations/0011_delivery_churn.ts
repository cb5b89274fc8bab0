import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  // An attempt row and a round row are each written twice: opened by the claim, closed after the
  // POST, a few milliseconds later. Room left on their pages lets the closing write stay on the
  // same page without touching any index (a HOT update: no indexed column changes), instead of a
  // new row version with an entry in every index.
  yield* sql`ALTER TABLE delivery_attempts SET (fillfactor = 50)`
  yield* sql`ALTER TABLE delivery_rounds SET (fillfactor = 50)`
  // The claim and the backlog read due events through events_open_by_tenant (network first);
  // this older index only cost a write on every claim.
  yield* sql`DROP INDEX events_due`
  // Each dispatcher now counts the events it holds itself: this index of claimed events was read
  // by every claim, and every claim and release left a dead entry in it until the next vacuum.
  yield* sql`DROP INDEX events_claimed`
})
