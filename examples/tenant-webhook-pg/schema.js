// The receiver's own tables (they belong to the tenant's database, not to the collector's).
// Revisions start at 1, so a deposit's row exists only once one of its revisions was booked.
export const webhookStoreSchema = `
CREATE TABLE IF NOT EXISTS webhook_events (
  app_id   text NOT NULL,
  event_id text NOT NULL,
  state    text NOT NULL CHECK (state IN ('in-progress', 'processed')),
  PRIMARY KEY (app_id, event_id)
);
CREATE TABLE IF NOT EXISTS deposit_revisions (
  deposit_id text PRIMARY KEY,
  revision   integer NOT NULL CHECK (revision > 0)
);
`

/** Creates the tables if they are missing; run it once at the receiver's start (or in your migrations). */
export const createWebhookStoreTables = async (pool) => {
  await pool.query(webhookStoreSchema)
}
