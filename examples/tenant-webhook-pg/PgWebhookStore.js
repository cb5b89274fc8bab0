// A `WebhookStore` of @collector/sdk on PostgreSQL through node-postgres (`pg`): the receivers
// (`nodeWebhookHandler`, `expressWebhookHandler`, `fastifyWebhookPlugin`, `createWebhookHandler`)
// take it as `store`. Unlike the SDK's MemoryWebhookStore it survives restarts and is shared by
// every process of the receiver, which the service's re-deliveries (up to 24 hours, across
// restarts) need. Tables: schema.js.

/**
 * Event claims are atomic because the primary key decides them: of concurrent INSERTs of one
 * (app_id, event_id), exactly one inserts and the others meet the conflict. Deposit revisions
 * are decided and recorded in one statement that also locks the deposit's row until the booking
 * commits, so revisions of one deposit are booked one at a time and never downwards.
 */
export class PgWebhookStore {
  /** @param {import("pg").Pool} pool */
  constructor(pool) {
    this.pool = pool
  }

  async claim({ appId, eventId }) {
    const inserted = await this.pool.query(
      "INSERT INTO webhook_events (app_id, event_id, state) VALUES ($1, $2, 'in-progress') ON CONFLICT DO NOTHING",
      [appId, eventId]
    )
    if (inserted.rowCount === 1) return "claimed"
    const { rows } = await this.pool.query("SELECT state FROM webhook_events WHERE app_id = $1 AND event_id = $2", [appId, eventId])
    // No row: its owner released it between the two statements. Not acknowledged (the answer is
    // 409), so the service delivers it again and that delivery can claim it.
    return rows[0]?.state ?? "in-progress"
  }

  async complete({ appId, eventId }) {
    await this.pool.query("UPDATE webhook_events SET state = 'processed' WHERE app_id = $1 AND event_id = $2", [appId, eventId])
  }

  async release({ appId, eventId }) {
    // Only an unfinished claim: a booked event stays booked whatever a late caller says.
    await this.pool.query("DELETE FROM webhook_events WHERE app_id = $1 AND event_id = $2 AND state = 'in-progress'", [appId, eventId])
  }

  /**
   * Runs `book` only for a revision above the highest booked for the deposit, and keeps the new
   * revision only if `book` resolves (otherwise ROLLBACK puts the old one back). A concurrent
   * booking of the same deposit waits in its INSERT for this transaction to end, then compares
   * against what this one committed. `book` receives the transaction's client: a booking that
   * writes through it commits or rolls back together with its revision (the SDK's receivers call
   * `book()` with nothing; a caller of `bookIfHigher` of its own, a deposit query say, can use it).
   */
  async bookIfHigher(depositId, revision, book) {
    const db = await this.pool.connect()
    let broken
    try {
      await db.query("BEGIN")
      const raised = await db.query(
        `INSERT INTO deposit_revisions AS booked (deposit_id, revision) VALUES ($1, $2)
         ON CONFLICT (deposit_id) DO UPDATE SET revision = excluded.revision WHERE booked.revision < excluded.revision`,
        [depositId, revision]
      )
      if (raised.rowCount === 0) {
        const { rows } = await db.query("SELECT revision FROM deposit_revisions WHERE deposit_id = $1", [depositId])
        await db.query("ROLLBACK")
        return { applied: false, highestBooked: rows[0].revision }
      }
      const value = await book(db)
      await db.query("COMMIT")
      return { applied: true, value }
    } catch (error) {
      // A connection that cannot even roll back is closed rather than handed to the next caller.
      await db.query("ROLLBACK").catch((rollbackError) => (broken = rollbackError))
      throw error
    } finally {
      db.release(broken)
    }
  }
}
