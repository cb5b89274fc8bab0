/**
 * The deliveries benchmark's fair reference (issue 21): a hand-written delivery loop on raw `pg`
 * (node-postgres) and bare `node:https`, doing what the contract requires of each delivery on
 * the same schema as PgDeliveryLedger, with no Effect, no ports and no framework around it.
 * `bench/deliveries.ts` runs it beside the worker's dispatcher, against the same receiver and an
 * equal freshly seeded batch, and prints `RATIO deliveries <ours>/<reference> = <percent>%`.
 * The batch size is the benchmark's `BENCH_EVENTS` (20,000; e.g. `BENCH_EVENTS=2000` for a
 * quick run), the slots its `BENCH_DISPATCHER_IN_FLIGHT` (default `BENCH_IN_FLIGHT`, 64);
 * `BENCH_REFERENCE_FIRST=1` runs the reference before the dispatcher instead of after it.
 *
 * Per delivery, as ours:
 * - claim: due events of the network are locked with `FOR UPDATE SKIP LOCKED` and, in the same
 *   statement, claimed under a lease (`claimed_by`, `claimed_until`), moved to `delivering` with
 *   `attempts + 1`, a new round started from `tenant_settings` (round URL, start and deadline on
 *   the event, its `delivery_rounds` row), the attempt's `delivery_attempts` row inserted, and the
 *   app's sealed webhook key read;
 * - the app's webhook key opened (AES-256-GCM under the master key, as AesGcmSecretBox: sealed
 *   format v2, a 4-byte header and the key id plus the value's place `apps`/`webhook_key_sealed`/
 *   `<tenant>/<network>` as additional data; a v1 value, with no header, the key id alone), once per
 *   app per claim, as ours does once per group;
 * - the payload sealed in the contract's envelope (`{version, algorithm, nonce, ciphertext,
 *   timestamp}`, AES-256-GCM, a fresh 12-byte nonce, the timestamp as additional data, the tag
 *   appended), one timestamp per claim as ours per group;
 * - POSTed with the same headers (Content-Type, X-App-Id, X-Event-Id, X-Event-Type, and Host and
 *   Content-Length) through a keep-alive agent, with the contract's 10 s response window (one
 *   timer per request) and a 64 KiB cap on the response read;
 * - judged by the contract (HTTP 200 and a JSON object whose top-level `code` is 0), and the
 *   outcome written: the attempt closed (end, duration, status, excerpt, error, outcome), the
 *   event `delivered` (or back to `pending`, or `failed`) with its claim released, and the round
 *   closed. Outcomes are written by group commit: one statement for those queued while the
 *   previous one ran (at most 256), as ours.
 *
 * Concurrency as ours: `inFlight` deliveries at once; a claim takes only what fits, and while
 * deliveries run only once a quarter of the slots is free; a slot is free once its outcome is
 * queued for writing; no claim while as many outcomes as slots wait to be written.
 *
 * Left out (ours does these): the claim takes due events in the order of events_open_by_tenant
 * (tenant by tenant) with no fairness between tenants and no per-tenant cap; no URL check before
 * sending (no lookup: the agent resolves the host once per new connection); no sending mark (the
 * attempt row is inserted as sent, `sent_at` set, so there is no withdrawal of unsent attempts);
 * events whose tenant has no usable webhook are not claimed (ours ends their round as failed), a
 * failed attempt is retried 10 s later (ours follows the contract's schedule with jitter), an
 * open attempt left by a dead worker is not settled; no metrics, spans, logs or backlog reports.
 */
import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto"
import { type Agent, request } from "node:https"
import type pg from "pg"

export interface ReferenceSettings {
  readonly pool: pg.Pool
  readonly network: string
  /** The claim holder written to `events.claimed_by`. */
  readonly holder: string
  /** Deliveries at once. */
  readonly inFlight: number
  /** The master key that sealed `apps.webhook_key_sealed` (its id is the sealed value's key id). */
  readonly masterKey: { readonly id: string; readonly bytes: Uint8Array }
  /** Keep-alive agent trusting the receiver's CA. */
  readonly agent: Agent
  readonly leaseMs?: number
  readonly pollMs?: number
  readonly outcomeBatch?: number
}

export interface ReferenceCounts {
  /** Claim statements, and events they returned. */
  claims: number
  claimed: number
  /** Outcome statements, and outcomes they carried. */
  outcomeWrites: number
  outcomes: number
  delivered: number
  failed: number
}

export interface ReferenceDispatcher {
  readonly counts: ReferenceCounts
  /** Stops claiming, waits for the deliveries under way and writes their outcomes. */
  readonly stop: () => Promise<void>
}

interface ClaimedRow {
  readonly id: string
  readonly event_type: string
  readonly payload: string
  readonly attempts: number
  readonly round_url: string
  readonly app_id: string
  readonly tenant_id: string
  readonly webhook_key_id: string
  readonly webhook_key_sealed: Buffer
}

interface Outcome {
  readonly eventId: string
  readonly attempt: number
  readonly endedAt: Date
  readonly durationMs: number
  readonly httpStatus: number | null
  readonly excerpt: string
  readonly error: string
  readonly delivered: boolean
  /** When a failed attempt goes again; null once the round has had all its attempts. */
  readonly nextAttempt: Date | null
}

const maxAttempts = 20
const responseWindowMs = 10_000
const maxResponseBytes = 64 * 1024
const roundMs = 24 * 3600_000

// The claim (compare PgDeliveryLedger.claimDue): lock due, unclaimed events in the order of
// events_open_by_tenant, claim them and start their attempt (and a new round) in one statement.
const claimStatement = `
  WITH picked AS (
    SELECT e.id, e.round_url IS NULL AS new_round FROM events e
    WHERE e.network = $1 AND e.status IN ('pending', 'delivering') AND e.next_attempt <= $2
      AND (e.claimed_until IS NULL OR e.claimed_until <= $2) AND e.attempts < ${maxAttempts}
      AND (e.round_url IS NULL OR (e.round_url <> '' AND e.deadline_at > $2))
    ORDER BY e.network, e.tenant_id, e.next_attempt, e.id
    LIMIT $3
    FOR UPDATE OF e SKIP LOCKED
  ), claimed AS (
    UPDATE events e SET claimed_by = $4, claimed_until = $5, attempts = e.attempts + 1, status = 'delivering',
           round_url = CASE WHEN p.new_round THEN s.webhook_url ELSE e.round_url END,
           round_started_at = CASE WHEN p.new_round THEN $2 ELSE e.round_started_at END,
           deadline_at = CASE WHEN p.new_round THEN $6 ELSE e.deadline_at END
    FROM picked p, tenant_settings s
    WHERE e.id = p.id AND s.tenant_id = e.tenant_id AND s.network = e.network AND s.webhook_enabled AND s.webhook_url <> ''
    RETURNING e.id, e.tenant_id, e.network, e.event_type, e.payload, e.current_round, e.attempts, e.round_url, p.new_round
  ), rounds AS (
    INSERT INTO delivery_rounds (event_id, round, url, started_at, deadline_at)
    SELECT id, current_round, round_url, $2, $6 FROM claimed WHERE new_round
  ), started AS (
    INSERT INTO delivery_attempts (event_id, round, attempt, url, started_at, sent_at)
    SELECT id, current_round, attempts, round_url, $2, $2 FROM claimed
  )
  SELECT c.id::text AS id, c.event_type, c.payload, c.attempts, c.round_url,
         a.app_id::text AS app_id, c.tenant_id::text AS tenant_id, a.webhook_key_id, a.webhook_key_sealed
  FROM claimed c JOIN apps a ON a.tenant_id = c.tenant_id AND a.network = c.network`

// The outcomes (compare PgDeliveryLedger.finishAttempts): the event moves on under its held
// claim and releases it; its attempt and, when the event is done, its round are closed.
const outcomeStatement = `
  WITH input AS (
    SELECT * FROM unnest($1::bigint[], $2::int[], $3::timestamptz[], $4::int[], $5::int[], $6::text[], $7::text[], $8::bool[], $9::timestamptz[])
      AS i(event_id, attempt, ended_at, duration_ms, http_status, excerpt, error, delivered, next_attempt)
  ), moved AS (
    UPDATE events e SET status = CASE WHEN i.delivered THEN 'delivered' WHEN i.next_attempt IS NULL THEN 'failed' ELSE 'pending' END,
           next_attempt = i.next_attempt,
           last_error = CASE WHEN i.delivered THEN e.last_error ELSE i.error END,
           delivered_at = CASE WHEN i.delivered THEN i.ended_at ELSE e.delivered_at END,
           claimed_by = NULL, claimed_until = NULL
    FROM input i
    WHERE e.id = i.event_id AND e.claimed_by = $10 AND e.attempts = i.attempt
    RETURNING e.id, e.current_round, e.status
  ), closed AS (
    UPDATE delivery_attempts a SET ended_at = i.ended_at, duration_ms = i.duration_ms, http_status = i.http_status,
           response_excerpt = i.excerpt, error = i.error, outcome = CASE WHEN i.delivered THEN 'delivered' ELSE 'failed' END
    FROM input i JOIN moved m ON m.id = i.event_id
    WHERE a.event_id = i.event_id AND a.round = m.current_round AND a.attempt = i.attempt
  )
  UPDATE delivery_rounds r SET ended_at = i.ended_at, outcome = m.status, reason = CASE WHEN m.status = 'failed' THEN i.error ELSE '' END
  FROM input i JOIN moved m ON m.id = i.event_id
  WHERE m.status <> 'pending' AND r.event_id = i.event_id AND r.round = m.current_round`

// The sealed format's version 2 header (packages/vault's SealedFormat), written out here so the
// reference does not lean on the code it is measured against.
const v2Header = Buffer.from([0x53, 0x42, 0x00, 0x02])

/** Version 2's additional data: the header, then key id, table, column and row, each as a 4-byte big-endian length and UTF-8 bytes. */
const aadV2 = (keyId: string, row: string): Buffer =>
  Buffer.concat([v2Header, ...[keyId, "apps", "webhook_key_sealed", row].flatMap((part) => {
    const bytes = Buffer.from(part, "utf8")
    const length = Buffer.alloc(4)
    length.writeUInt32BE(bytes.length)
    return [length, bytes]
  })])

const openRaw = (master: Uint8Array, body: Buffer, aad: Buffer): Buffer => {
  const decipher = createDecipheriv("aes-256-gcm", master, body.subarray(0, 12), { authTagLength: 16 })
  decipher.setAAD(aad)
  decipher.setAuthTag(body.subarray(body.length - 16))
  return Buffer.concat([decipher.update(body.subarray(12, body.length - 16)), decipher.final()])
}

/**
 * Opens an app's sealed webhook key, stored at row `<tenant>/<network>` of `apps.webhook_key_sealed`.
 * Version 2 (header || nonce (12) || ciphertext || tag (16)) binds the key id and that place; a value
 * without the header is version 1 (nonce || ciphertext || tag, the key id alone as additional data).
 * A v1 value whose random nonce happens to start with the header is tried as v1 after v2 fails, as ours.
 */
const openKey = (master: ReferenceSettings["masterKey"], keyId: string, tenantId: string, network: string, blob: Buffer): Buffer => {
  if (keyId !== master.id) throw new Error(`webhook key sealed under another master key (${keyId})`)
  if (blob.length >= 4 && blob.subarray(0, 4).equals(v2Header)) {
    try {
      return openRaw(master.bytes, blob.subarray(4), aadV2(keyId, `${tenantId}/${network}`))
    } catch {
      // fall through: a version 1 value that starts with the header by chance
    }
  }
  return openRaw(master.bytes, blob, Buffer.from(keyId, "utf8"))
}

/** The contract's envelope, as text: AES-256-GCM with a fresh nonce, the timestamp as additional data, the tag appended. */
const seal = (key: Buffer, plaintext: string, timestamp: string): string => {
  const nonce = randomBytes(12)
  const cipher = createCipheriv("aes-256-gcm", key, nonce, { authTagLength: 16 })
  cipher.setAAD(Buffer.from(timestamp, "utf8"))
  const sealed = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final(), cipher.getAuthTag()])
  return JSON.stringify({ version: "1", algorithm: "AES-256-GCM", nonce: nonce.toString("base64"), ciphertext: sealed.toString("base64"), timestamp })
}

/** Delivered only on HTTP 200 with a JSON object whose top-level `code` is the number 0. */
const judge = (status: number, body: string, truncated: boolean): string => {
  if (status !== 200) return `HTTP ${status}: expected 200`
  if (truncated) return "HTTP 200 but the response body is too large"
  try {
    const value: unknown = JSON.parse(body)
    if (typeof value === "object" && value !== null && !Array.isArray(value) && (value as { code?: unknown }).code === 0) return ""
    return "HTTP 200 but the response's top-level \"code\" is not 0"
  } catch {
    return "HTTP 200 but the response body is not JSON"
  }
}

const sleep = (ms: number) => new Promise<void>((done) => setTimeout(done, ms))

export const startReference = (settings: ReferenceSettings): ReferenceDispatcher => {
  const { pool, agent, inFlight } = settings
  const leaseMs = settings.leaseMs ?? 60_000
  const pollMs = settings.pollMs ?? 250
  const outcomeBatch = settings.outcomeBatch ?? 256
  const quarter = Math.max(1, Math.ceil(inFlight / 4))
  const counts: ReferenceCounts = { claims: 0, claimed: 0, outcomeWrites: 0, outcomes: 0, delivered: 0, failed: 0 }
  const urls = new Map<string, URL>()

  let stopping = false
  let busy = 0
  // The claim loop's wake-up: a freed slot that leaves room to claim, or the writer catching up.
  let wake: (() => void) | undefined
  const wakeLoop = () => {
    const w = wake
    wake = undefined
    w?.()
  }
  const nextWake = (timeoutMs?: number) =>
    new Promise<void>((done) => {
      const timer = timeoutMs === undefined ? undefined : setTimeout(() => {
        wake = undefined
        done()
      }, timeoutMs)
      wake = () => {
        if (timer !== undefined) clearTimeout(timer)
        done()
      }
    })

  // Group commit of outcomes: one statement at a time, carrying everything queued meanwhile.
  const queued: Array<Outcome> = []
  let writing: Promise<void> | undefined
  const writeOutcomes = async (batch: ReadonlyArray<Outcome>) => {
    await pool.query(outcomeStatement, [
      batch.map((o) => o.eventId),
      batch.map((o) => o.attempt),
      batch.map((o) => o.endedAt),
      batch.map((o) => o.durationMs),
      batch.map((o) => o.httpStatus),
      batch.map((o) => o.excerpt),
      batch.map((o) => o.error),
      batch.map((o) => o.delivered),
      batch.map((o) => o.nextAttempt),
      settings.holder
    ])
    counts.outcomeWrites++
    counts.outcomes += batch.length
  }
  const flush = async () => {
    while (queued.length > 0) {
      const batch = queued.splice(0, outcomeBatch)
      try {
        await writeOutcomes(batch)
      } catch (error) {
        console.error("reference: outcomes not written; writing them again", error)
        queued.unshift(...batch)
        await sleep(500)
      }
    }
  }
  const submit = (outcome: Outcome) => {
    queued.push(outcome)
    if (outcome.delivered) counts.delivered++
    else counts.failed++
    writing ??= flush().finally(() => {
      writing = undefined
      wakeLoop()
    })
    busy--
    if (inFlight - busy >= quarter || busy === 0) wakeLoop()
  }

  /** One POST; `done` is called exactly once. */
  const post = (row: ClaimedRow, body: string, done: (status: number | null, text: string, truncated: boolean, error: string) => void) => {
    let url = urls.get(row.round_url)
    if (url === undefined) urls.set(row.round_url, url = new URL(row.round_url))
    let settled = false
    const finish = (status: number | null, text: string, truncated: boolean, error: string) => {
      if (settled) return
      settled = true
      clearTimeout(timer)
      done(status, text, truncated, error)
    }
    const req = request({
      host: url.hostname,
      port: url.port === "" ? 443 : Number(url.port),
      method: "POST",
      path: `${url.pathname}${url.search}`,
      agent,
      headers: {
        "Content-Type": "application/json",
        "X-App-Id": row.app_id,
        "X-Event-Id": row.id,
        "X-Event-Type": row.event_type,
        "Content-Length": String(Buffer.byteLength(body))
      }
    }, (res) => {
      const chunks: Array<Buffer> = []
      let size = 0
      res.on("data", (chunk: Buffer) => {
        if (size >= maxResponseBytes) return
        chunks.push(chunk)
        size += chunk.length
      })
      res.once("end", () => {
        const text = Buffer.concat(chunks).subarray(0, maxResponseBytes).toString("utf8")
        finish(res.statusCode ?? 0, text, size > maxResponseBytes, "")
      })
      res.once("error", (error) => finish(null, "", false, error.message))
    })
    const timer = setTimeout(() => {
      finish(null, "", false, `no complete response within ${responseWindowMs} ms`)
      req.destroy()
    }, responseWindowMs)
    req.once("error", (error) => finish(null, "", false, error.message))
    req.end(body)
  }

  const deliver = (rows: ReadonlyArray<ClaimedRow>, startedAt: number) => {
    const timestamp = new Date(startedAt).toISOString()
    const keys = new Map<string, Buffer>()
    for (const row of rows) {
      let key = keys.get(row.app_id)
      if (key === undefined) {
        try {
          key = openKey(settings.masterKey, row.webhook_key_id, row.tenant_id, settings.network, row.webhook_key_sealed)
        } catch (error) {
          // Its claimed rows would hold their slots for ever and the run would stall (as it did
          // when the sealed format changed): stop instead of measuring a reference that cannot deliver.
          console.error(`reference: the webhook key of app ${row.app_id} does not open`, error)
          process.exit(1)
        }
        keys.set(row.app_id, key)
      }
      post(row, seal(key, row.payload, timestamp), (status, text, truncated, failure) => {
        const ended = Date.now()
        const error = status === null ? failure : judge(status, text, truncated)
        const delivered = error === ""
        submit({
          eventId: row.id,
          attempt: row.attempts,
          endedAt: new Date(ended),
          durationMs: ended - startedAt,
          httpStatus: status,
          excerpt: text.slice(0, 1024),
          error,
          delivered,
          nextAttempt: delivered || row.attempts >= maxAttempts ? null : new Date(ended + 10_000)
        })
      })
    }
  }

  const claim = async (limit: number) => {
    const now = Date.now()
    const result = await pool.query<ClaimedRow>(claimStatement, [
      settings.network,
      new Date(now),
      limit,
      settings.holder,
      new Date(now + leaseMs),
      new Date(now + roundMs)
    ])
    counts.claims++
    counts.claimed += result.rows.length
    return { rows: result.rows, startedAt: now }
  }

  const loop = async () => {
    while (!stopping) {
      try {
        // Not while as many outcomes as slots wait to be written (the database is behind).
        if (queued.length >= inFlight) {
          await writing
          continue
        }
        const room = inFlight - busy
        if (busy > 0 && room < quarter) {
          await nextWake()
          continue
        }
        const { rows, startedAt } = await claim(room)
        busy += rows.length
        deliver(rows, startedAt)
        if (rows.length === 0 && busy === 0) await sleep(pollMs)
        else if (rows.length < room) await nextWake(pollMs)
      } catch (error) {
        console.error("reference: claiming due events failed", error)
        await sleep(pollMs)
      }
    }
  }
  const running = loop()

  return {
    counts,
    stop: async () => {
      stopping = true
      wakeLoop()
      await running
      while (busy > 0) await nextWake(50)
      while (writing !== undefined) await writing
    }
  }
}
