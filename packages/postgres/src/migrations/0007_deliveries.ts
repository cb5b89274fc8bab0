import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  // The current round's target, fixed when the round starts (NULL: not started yet; '' with
  // the round ended at once: no usable configuration), and the dispatcher's claim on the event
  // (a claim that runs out is taken over, and its open attempt closed as interrupted).
  yield* sql`
    ALTER TABLE events
      ADD COLUMN round_url text,
      ADD COLUMN round_started_at timestamptz,
      ADD COLUMN claimed_by text,
      ADD COLUMN claimed_until timestamptz`
  yield* sql`
    CREATE TABLE delivery_rounds (
      id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      event_id bigint NOT NULL REFERENCES events (id),
      round integer NOT NULL CHECK (round >= 1),
      url text NOT NULL,
      started_at timestamptz NOT NULL,
      deadline_at timestamptz NOT NULL,
      ended_at timestamptz,
      outcome text CHECK (outcome IN ('delivered', 'failed')),
      reason text NOT NULL DEFAULT '',
      UNIQUE (event_id, round)
    )`
  yield* sql`
    CREATE TABLE delivery_attempts (
      id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      event_id bigint NOT NULL REFERENCES events (id),
      round integer NOT NULL CHECK (round >= 1),
      attempt integer NOT NULL CHECK (attempt BETWEEN 1 AND 20),
      url text NOT NULL,
      started_at timestamptz NOT NULL,
      ended_at timestamptz,
      duration_ms integer,
      http_status integer,
      response_excerpt text NOT NULL DEFAULT '',
      error text NOT NULL DEFAULT '',
      outcome text CHECK (outcome IN ('delivered', 'failed')),
      UNIQUE (event_id, round, attempt)
    )`
  yield* sql`CREATE INDEX delivery_attempts_event ON delivery_attempts (event_id, id DESC)`
})
