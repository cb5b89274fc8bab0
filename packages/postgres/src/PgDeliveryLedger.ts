import { SqlClient, type SqlError } from "@effect/sql"
import { type Kernel, Notifications } from "@collector/core"

import { Data, Effect, Layer } from "effect"
import { integerArray } from "./PgArrays.js"
import { aliased, type Columns, render } from "./RowRuleSql.js"

interface DueRow {
  readonly id: string
  readonly tenant_id: string
  readonly network: Kernel.Network
  readonly event_type: Notifications.EventType
  readonly payload: string
  readonly current_round: number
  readonly attempts: number
  readonly round_url: string | null
  readonly round_started_at: Date | null
  readonly deadline_at: Date
  readonly last_error: string
  readonly app_id: string | null
  readonly webhook_key_id: string | null
  readonly webhook_key_sealed: Uint8Array | null
  readonly open_attempt: number | null
  readonly open_started_at: Date | null
  readonly open_sent: boolean
  readonly webhook_url: string | null
  readonly webhook_enabled: boolean | null
  readonly started: boolean
}

const toDueEvent = (now: Date) => (row: DueRow): Notifications.DueEvent => ({
  eventId: row.id,
  tenantId: row.tenant_id as Kernel.TenantId,
  network: row.network,
  eventType: row.event_type,
  payload: row.payload,
  round: row.current_round,
  attempts: row.attempts,
  roundUrl: row.round_url,
  roundStartedAt: row.round_started_at,
  deadlineAt: row.deadline_at,
  lastError: row.last_error,
  app: row.app_id === null || row.webhook_key_id === null || row.webhook_key_sealed === null
    ? null
    : { appId: row.app_id, webhookKey: { keyId: row.webhook_key_id, blob: new Uint8Array(row.webhook_key_sealed) } },
  openAttempt: row.open_attempt === null || row.open_started_at === null
    ? null
    : { attempt: row.open_attempt, startedAt: row.open_started_at, sent: row.open_sent },
  // No settings row is the default configuration: no URL, disabled.
  webhook: row.round_url === null ? { url: row.webhook_url ?? "", enabled: row.webhook_enabled ?? false } : null,
  started: row.started && row.round_url !== null ? { attempt: row.attempts, url: row.round_url, startedAt: now } : null
})

/** Rolls a transaction back when its guard finds the claim gone. */
class ClaimLost extends Data.TaggedError("ClaimLost") {}

// The columns core's delivery rules (DeliveryRules) read, for the aliases the statements use.
const eventColumns: Columns<Notifications.DeliveryRules.EventClaimFields> = { status: "status", nextAttempt: "next_attempt", claimedUntil: "claimed_until" }
const roundColumns: Columns<Notifications.DeliveryRules.RoundFields> = { roundUrl: "e.round_url", attempts: "e.attempts", deadlineAt: "e.deadline_at" }
const webhookColumns: Columns<Notifications.DeliveryRules.WebhookFields> = { webhookEnabled: "s.webhook_enabled", webhookUrl: "s.webhook_url" }
const holdColumns: Columns<Notifications.DeliveryRules.ClaimHoldFields> = { currentRound: "current_round", claimedBy: "claimed_by", attempts: "attempts" }
const attemptColumns: Columns<Notifications.DeliveryRules.RoundAttemptFields> = { attempt: "o.attempt", endedAt: "o.ended_at", eventAttempts: "e.attempts" }

const statusOf = (next: Notifications.NextStep) => next._tag === "Delivered" ? "delivered" : next._tag === "Retry" ? "pending" : "failed"

export const make = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const eventsE = aliased("e", eventColumns)
  const isOpen = (columns: Columns<Notifications.DeliveryRules.EventClaimFields>) => render(sql, Notifications.DeliveryRules.eventOpen, columns, {})
  const isDue = (now: Date) => render(sql, Notifications.DeliveryRules.eventDue, eventsE, { now })
  const isClaimable = (now: Date) => render(sql, Notifications.DeliveryRules.eventClaimable, eventsE, { now })
  const claimHeldBy = (claim: Notifications.Claim) =>
    render(sql, Notifications.DeliveryRules.claimHeld, holdColumns, { round: claim.round, holder: claim.holder })
  // A batch's rows (`input AS i`) each name their claim and attempt.
  const inputHeld = render(sql, Notifications.DeliveryRules.attemptHeld, aliased("e", holdColumns), { round: sql`i.round`, holder: sql`i.holder`, attempt: sql`i.attempt` })

  const guarded = <A>(effect: Effect.Effect<A, ClaimLost | SqlError.SqlError>) =>
    sql.withTransaction(effect).pipe(
      Effect.as(true),
      Effect.catchTag("ClaimLost", () => Effect.succeed(false)),
      Effect.orDie
    )

  /**
   * The `tenants` CTE of a `WITH RECURSIVE`: the tenants with open events on `network`, found by
   * skipping through events_open_by_tenant (one probe per tenant; a NULL row ends the walk).
   */
  const openTenants = (network: Kernel.Network) =>
    sql`tenants AS (
          (SELECT tenant_id FROM events
           WHERE network = ${network} AND ${isOpen(eventColumns)}
           ORDER BY tenant_id LIMIT 1)
          UNION ALL
          SELECT (SELECT e.tenant_id FROM events e
                  WHERE e.network = ${network} AND ${isOpen(eventsE)} AND e.tenant_id > t.tenant_id
                  ORDER BY e.tenant_id LIMIT 1)
          FROM tenants t WHERE t.tenant_id IS NOT NULL
        )`

  const ensure = (rows: ReadonlyArray<unknown>) => rows.length === 0 ? Effect.fail(new ClaimLost()) : Effect.void

  // A batch of held attempts or outcomes goes in as one array per column, read back with a
  // multi-argument unnest: the planner knows the array's length when it plans. jsonb_to_recordset
  // counts as 100 rows, for which the outcome write scanned the whole of delivery_attempts instead
  // of probing each item's attempt by key. node-postgres writes each JavaScript array as one array
  // literal (NULLs, quotes and dates included).

  /** The `input` rows of a batch of held attempts: event, holder, round, attempt. */
  const heldInput = (attempts: ReadonlyArray<Notifications.HeldAttempt>) =>
    sql`SELECT * FROM unnest(
          ${attempts.map((a) => a.claim.eventId)}::bigint[], ${attempts.map((a) => a.claim.holder)}::text[],
          ${attempts.map((a) => a.claim.round)}::int[], ${attempts.map((a) => a.attempt)}::int[]
        ) AS i(event_id, holder, round, attempt)`

  /** The `input` rows of a batch of outcomes: the held attempt, its record and where its event goes. */
  const finishInput = (finishes: ReadonlyArray<Notifications.AttemptFinish>) =>
    sql`SELECT * FROM unnest(
          ${finishes.map((f) => f.claim.eventId)}::bigint[], ${finishes.map((f) => f.claim.holder)}::text[],
          ${finishes.map((f) => f.claim.round)}::int[], ${finishes.map((f) => f.attempt)}::int[],
          ${finishes.map((f) => f.record.endedAt)}::timestamptz[], ${finishes.map((f) => f.record.durationMs)}::int[],
          ${finishes.map((f) => f.record.httpStatus)}::int[], ${finishes.map((f) => f.record.responseExcerpt)}::text[],
          ${finishes.map((f) => f.record.error)}::text[], ${finishes.map((f) => f.record.delivered)}::boolean[],
          ${finishes.map((f) => statusOf(f.next))}::text[],
          ${finishes.map((f) => f.next._tag === "Retry" ? f.next.at : null)}::timestamptz[],
          ${finishes.map((f) => f.next._tag === "RoundFailed" ? f.next.reason : f.record.error)}::text[],
          ${finishes.map((f) => f.next._tag === "RoundFailed" ? f.next.reason : "")}::text[]
        ) AS i(event_id, holder, round, attempt, ended_at, duration_ms, http_status, response_excerpt, error, delivered,
               status, next_attempt, last_error, round_reason)`

  return Notifications.DeliveryLedger.of({
    // Fair claim: a tenant gets at most `perTenant` events held by this dispatcher (those it
    // already holds, passed in, count), and ordering by rank takes every tenant's first due event
    // before anyone's second. Nothing here reads the whole backlog: the tenants with open events
    // are found by skipping through events_open_by_tenant (one probe per tenant), and each
    // tenant's candidates are the first of its due events in that index (at most its free
    // share). Only the best-ranked candidates (four times the limit, for those other dispatchers
    // claiming at the same moment lock first) are then locked, through the primary key (ANY of
    // their IDs: a join would let the planner hash every due event, misjudging how few candidates
    // there are). The lock
    // re-checks the claim conditions on the newest row version, so an event claimed by another
    // dispatcher meanwhile is never claimed twice, and what `picked` decides (the URL to start
    // with, if any) is computed from that version.
    //
    // Counting every dispatcher's claims here instead would scan an index of claimed events that
    // every claim and release churns: its dead entries are only removed by vacuum, so each claim
    // walked through every claim made since the last one (a claim cost 8 ms for 30 events after
    // 20,000 deliveries).
    //
    // The same statement starts the next attempt of each claimed event that can go on (the
    // port's rules): attempts + 1 and `delivering` on the event, the round's URL, start and
    // deadline when the round is new (with its delivery_rounds row), and the attempt's row. An
    // event with an open attempt, or a row already recorded past its attempt count, is only
    // claimed. A new round that cannot start comes back with its configuration, to say why.
    //
    // The claimed events come back in the order picked (the dispatcher launches them so): an
    // UPDATE returns its rows in the order its join reads them, and the joins after it may
    // reorder them again, so the last SELECT sorts by the pick's keys.
    claimDue: (r) =>
      sql<DueRow>`
        WITH RECURSIVE ${openTenants(r.network)}, busy AS (
          SELECT * FROM unnest(${integerArray([...r.held.keys()])}::bigint[], ${integerArray([...r.held.values()])}::int[]) AS b(tenant_id, n)
        ), ranked AS (
          SELECT d.id, d.next_attempt, row_number() OVER (PARTITION BY t.tenant_id ORDER BY d.next_attempt, d.id) AS rank
          FROM tenants t
          LEFT JOIN busy b ON b.tenant_id = t.tenant_id
          CROSS JOIN LATERAL (
            SELECT e.id, e.next_attempt FROM events e
            WHERE e.network = ${r.network} AND e.tenant_id = t.tenant_id AND ${isClaimable(r.now)}
            ORDER BY e.next_attempt, e.id
            LIMIT least(greatest(${r.perTenant}::int - coalesce(b.n, 0), 0), ${r.limit}::int)
          ) d
          WHERE t.tenant_id IS NOT NULL
        ), picked AS (
          SELECT e.id, k.rank, k.next_attempt AS due_at, e.round_url IS NULL AS new_round,
                 CASE
                   WHEN EXISTS (
                     SELECT 1 FROM delivery_attempts o
                     WHERE o.event_id = e.id AND o.round = e.current_round
                       AND ${render(sql, Notifications.DeliveryRules.attemptBlocksStart, attemptColumns, {})}
                   ) THEN NULL
                   WHEN e.round_url IS NULL THEN (
                     SELECT s.webhook_url FROM tenant_settings s
                     WHERE s.tenant_id = e.tenant_id AND s.network = e.network
                       AND ${render(sql, Notifications.DeliveryRules.webhookConfigured, webhookColumns, {})})
                   WHEN ${render(sql, Notifications.DeliveryRules.roundGoesOn, roundColumns, { now: r.now, maxAttempts: r.maxAttempts })} THEN e.round_url
                 END AS start_url
          FROM events e
          JOIN ranked k ON k.id = e.id
          WHERE e.id = ANY (ARRAY(SELECT id FROM ranked ORDER BY rank, next_attempt, id LIMIT 4 * ${r.limit}::int)) AND ${isClaimable(r.now)}
          ORDER BY k.rank, k.next_attempt, k.id
          LIMIT ${r.limit}
          FOR UPDATE OF e SKIP LOCKED
        ), claimed AS (
          UPDATE events e SET claimed_by = ${r.holder}, claimed_until = ${r.leaseUntil},
                 attempts = CASE WHEN p.start_url IS NULL THEN e.attempts ELSE e.attempts + 1 END,
                 status = CASE WHEN p.start_url IS NULL THEN e.status ELSE 'delivering' END,
                 round_url = CASE WHEN p.start_url IS NOT NULL AND p.new_round THEN p.start_url ELSE e.round_url END,
                 round_started_at = CASE WHEN p.start_url IS NOT NULL AND p.new_round THEN ${r.now} ELSE e.round_started_at END,
                 deadline_at = CASE WHEN p.start_url IS NOT NULL AND p.new_round THEN ${r.roundDeadline} ELSE e.deadline_at END
          FROM picked p WHERE e.id = p.id
          RETURNING e.id, e.tenant_id, e.network, e.event_type, e.payload, e.current_round, e.attempts, e.round_url,
                    e.round_started_at, e.deadline_at, e.last_error, p.start_url, p.new_round, p.rank, p.due_at
        ), rounds AS (
          INSERT INTO delivery_rounds (event_id, round, url, started_at, deadline_at)
          SELECT id, current_round, start_url, ${r.now}, ${r.roundDeadline} FROM claimed WHERE start_url IS NOT NULL AND new_round
          ON CONFLICT (event_id, round) DO NOTHING
        ), started AS (
          INSERT INTO delivery_attempts (event_id, round, attempt, url, started_at, sent_at)
          SELECT id, current_round, attempts, start_url, ${r.now}, NULL FROM claimed WHERE start_url IS NOT NULL
          ON CONFLICT (event_id, round, attempt) DO NOTHING
          RETURNING event_id
        )
        SELECT c.id::text AS id, c.tenant_id::text AS tenant_id, c.network, c.event_type, c.payload, c.current_round,
               c.attempts, c.round_url, c.round_started_at, c.deadline_at, c.last_error,
               a.app_id::text AS app_id, a.webhook_key_id, a.webhook_key_sealed,
               o.attempt AS open_attempt, o.started_at AS open_started_at, o.sent_at IS NOT NULL AS open_sent,
               s.webhook_url, s.webhook_enabled, st.event_id IS NOT NULL AS started
        FROM claimed c
        LEFT JOIN started st ON st.event_id = c.id
        LEFT JOIN apps a ON a.tenant_id = c.tenant_id AND a.network = c.network
        LEFT JOIN tenant_settings s ON s.tenant_id = c.tenant_id AND s.network = c.network AND c.round_url IS NULL
        LEFT JOIN delivery_attempts o ON o.event_id = c.id AND o.round = c.current_round AND o.ended_at IS NULL
        ORDER BY c.rank, c.due_at, c.id`.pipe(
        Effect.orDie,
        Effect.map((rows) => rows.map(toDueEvent(r.now)))
      ),

    // Locks each held event (FOR SHARE) while its mark is written: a dispatcher taking the event
    // over locks it to claim it, so the takeover either comes first (and the mark finds the claim
    // gone) or is claimed only after the mark is committed, and its withdrawal then finds the
    // attempt marked. A lease that ran out is not held: the event may be taken over any moment.
    markSending: (attempts, at) =>
      attempts.length === 0 ? Effect.succeed([]) : sql<{ event_id: string }>`
        WITH input AS (${heldInput(attempts)}), held AS (
          SELECT e.id FROM events e JOIN input i ON i.event_id = e.id
          WHERE ${inputHeld}
            AND ${render(sql, Notifications.DeliveryRules.leaseHeld, { claimedUntil: "e.claimed_until" }, { now: at })}
          FOR SHARE OF e
        )
        UPDATE delivery_attempts a SET sent_at = ${at}
        FROM input i JOIN held h ON h.id = i.event_id
        WHERE a.event_id = i.event_id AND a.round = i.round AND a.attempt = i.attempt AND a.ended_at IS NULL
        RETURNING a.event_id::text AS event_id`.pipe(
        Effect.orDie,
        Effect.map((rows) => rows.map((row) => row.event_id))
      ),

    // The event moves back first, under its held claim and only while its attempt is open and
    // unmarked; the attempt row goes only for the events so moved. No mark can arrive after this
    // statement's snapshot: only the claim's holder marks, and it withdraws only what it did not
    // mark; a previous holder's mark was committed before this holder's claim (markSending).
    // The round keeps its start (URL, deadline, row): it started when its first attempt was
    // recorded, and the claim never moved `next_attempt`, so the event is due again at once.
    withdrawAttempts: (attempts) =>
      attempts.length === 0 ? Effect.succeed([]) : sql<{ id: string }>`
        WITH input AS (${heldInput(attempts)}), moved AS (
          UPDATE events e SET attempts = e.attempts - 1, status = 'pending', claimed_by = NULL, claimed_until = NULL
          FROM input i
          WHERE e.id = i.event_id AND ${inputHeld}
            AND EXISTS (
              SELECT 1 FROM delivery_attempts a
              WHERE a.event_id = i.event_id AND a.round = i.round AND a.attempt = i.attempt AND a.ended_at IS NULL AND a.sent_at IS NULL)
          RETURNING e.id
        ), removed AS (
          DELETE FROM delivery_attempts a
          USING input i JOIN moved m ON m.id = i.event_id
          WHERE a.event_id = i.event_id AND a.round = i.round AND a.attempt = i.attempt
        )
        SELECT id::text AS id FROM moved`.pipe(
        Effect.orDie,
        Effect.map((rows) => rows.map((row) => row.id))
      ),

    failNewRound: (claim, round) =>
      guarded(Effect.gen(function*() {
        yield* ensure(yield* sql`
          UPDATE events SET round_url = '', round_started_at = ${round.at}, deadline_at = ${round.deadlineAt},
                 status = 'failed', next_attempt = NULL, last_error = ${round.reason}, claimed_by = NULL, claimed_until = NULL
          WHERE id = ${claim.eventId} AND ${claimHeldBy(claim)} AND round_url IS NULL
          RETURNING id`)
        yield* sql`
          INSERT INTO delivery_rounds (event_id, round, url, started_at, deadline_at, ended_at, outcome, reason)
          VALUES (${claim.eventId}, ${claim.round}, '', ${round.at}, ${round.deadlineAt}, ${round.at}, 'failed', ${round.reason})
          ON CONFLICT (event_id, round) DO NOTHING`
      })).pipe(Effect.asVoid),

    endRound: (claim, at, reason) =>
      guarded(Effect.gen(function*() {
        yield* ensure(yield* sql`
          UPDATE events SET status = 'failed', next_attempt = NULL, last_error = ${reason}, claimed_by = NULL, claimed_until = NULL
          WHERE id = ${claim.eventId} AND ${claimHeldBy(claim)}
          RETURNING id`)
        yield* sql`
          UPDATE delivery_rounds SET ended_at = ${at}, outcome = 'failed', reason = ${reason}
          WHERE event_id = ${claim.eventId} AND round = ${claim.round} AND ended_at IS NULL`
      })).pipe(Effect.asVoid),

    // One statement for the whole batch. An event moves on only under its held claim, at the
    // attempt count of the attempt being closed, and while that attempt is still open; the
    // attempt row and the round end are written only for the events so moved. Writing the same
    // batch again (after an error whose transaction may or may not have committed) finds those
    // already written released and closed, and changes nothing for them.
    finishAttempts: (finishes) =>
      finishes.length === 0 ? Effect.void : sql`
        WITH input AS (${finishInput(finishes)}), moved AS (
          UPDATE events e SET status = i.status, next_attempt = i.next_attempt,
                 last_error = CASE WHEN i.delivered THEN e.last_error ELSE i.last_error END,
                 delivered_at = CASE WHEN i.delivered THEN i.ended_at ELSE e.delivered_at END,
                 claimed_by = NULL, claimed_until = NULL
          FROM input i
          WHERE e.id = i.event_id AND ${inputHeld}
            AND EXISTS (
              SELECT 1 FROM delivery_attempts a
              WHERE a.event_id = i.event_id AND a.round = i.round AND a.attempt = i.attempt AND a.ended_at IS NULL)
          RETURNING e.id
        ), closed AS (
          UPDATE delivery_attempts a SET ended_at = i.ended_at, duration_ms = i.duration_ms, http_status = i.http_status,
                 response_excerpt = i.response_excerpt, error = i.error,
                 outcome = CASE WHEN i.delivered THEN 'delivered' ELSE 'failed' END
          FROM input i JOIN moved m ON m.id = i.event_id
          WHERE a.event_id = i.event_id AND a.round = i.round AND a.attempt = i.attempt AND a.ended_at IS NULL
        )
        UPDATE delivery_rounds r SET ended_at = i.ended_at, outcome = i.status, reason = i.round_reason
        FROM input i JOIN moved m ON m.id = i.event_id
        WHERE i.status <> 'pending' AND r.event_id = i.event_id AND r.round = i.round AND r.ended_at IS NULL`.pipe(
        Effect.orDie,
        Effect.asVoid
      ),

    release: (claims) =>
      claims.length === 0 ? Effect.void : sql`
        UPDATE events e SET claimed_by = NULL, claimed_until = NULL
        FROM jsonb_to_recordset(${JSON.stringify(claims.map((c) => ({ event_id: c.eventId, holder: c.holder })))}::jsonb)
          AS i(event_id bigint, holder text)
        WHERE e.id = i.event_id AND e.claimed_by = i.holder`.pipe(
        Effect.orDie,
        Effect.asVoid
      ),

    // Through events_claimed: only claimed events are read.
    handBack: (network, holders) =>
      holders.length === 0 ? Effect.succeed([]) : sql<{ id: string }>`
        UPDATE events e SET claimed_by = NULL, claimed_until = NULL
        WHERE e.network = ${network} AND e.claimed_until IS NOT NULL AND e.claimed_by = ANY(${holders}::text[])
        RETURNING e.id::text AS id`.pipe(
        Effect.orDie,
        Effect.map((rows) => rows.map((row) => row.id))
      ),

    // Per tenant through events_open_by_tenant, reading only the due part of each tenant's range:
    // open events that are due later (retries hours ahead) are not read.
    backlog: (network, now) =>
      sql<{ due: number; oldest: Date | null }>`
        WITH RECURSIVE ${openTenants(network)}
        SELECT coalesce(sum(d.n), 0)::int AS due, min(d.oldest) AS oldest
        FROM tenants t CROSS JOIN LATERAL (
          SELECT count(*)::int AS n, min(e.next_attempt) AS oldest FROM events e
          WHERE e.network = ${network} AND e.tenant_id = t.tenant_id AND ${isDue(now)}
        ) d
        WHERE t.tenant_id IS NOT NULL`.pipe(
        Effect.orDie,
        Effect.map(([row]) => ({ due: row?.due ?? 0, oldestDueAt: row?.oldest ?? null }))
      )
  })
})

export const layer = Layer.effect(Notifications.DeliveryLedger, make)
