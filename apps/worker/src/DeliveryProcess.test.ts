import { openEnvelope } from "@collector/api"
import { Ack, Hang, startTestReceiver, testCaFile } from "@collector/outbound/testing"
import { expect, layer } from "@effect/vitest"
import { SqlClient } from "@effect/sql"
import { Effect, Either } from "effect"
import type { ChildProcess } from "node:child_process"
import { exited } from "../../../test-support/ChildExit.js"
import { eventually } from "../../../test-support/Eventually.js"
import { startTs } from "../../../test-support/Processes.js"
import { attemptRows, eventRow, masterKeyBytes, seedEvent, seedScope } from "./testing/DeliveryHarness.js"
import { DatabaseUrl, ProcessWorld } from "./testing/ProcessWorld.js"
import { Sim } from "./testing/ScanHarness.js"

const killed = (child: ChildProcess) =>
  Effect.async<void>((resume) => {
    if (child.exitCode !== null || child.signalCode !== null) return resume(Effect.void)
    child.once("exit", () => resume(Effect.void))
    child.kill("SIGKILL")
  })

const waitFor = <A, R>(read: Effect.Effect<A, never, R>, done: (a: A) => boolean, timeoutMs = 90_000) =>
  Effect.gen(function*() {
    const until = Date.now() + timeoutMs
    while (true) {
      const value = yield* read
      if (done(value)) return value
      if (Date.now() > until) return yield* Effect.dieMessage(`condition not reached in ${timeoutMs} ms; last ${JSON.stringify(value)}`)
      yield* Effect.sleep("50 millis")
    }
  })

/** A nile worker that delivers to the test receiver, polling often, with the shortest claim lease. */
const workerEnv = (crashAt?: string) =>
  Effect.gen(function*() {
    const sim = yield* Sim
    const state = yield* sim.chain.state
    return {
      DATABASE_URL: yield* DatabaseUrl,
      MASTER_KEY: masterKeyBytes.toString("base64"),
      TRON_NILE_NODE_URL: sim.url,
      WORKER_NETWORKS: "nile",
      SCAN_START_BLOCK: state.blocks[state.blocks.length - 1]!.number.toString(),
      WEBHOOK_ALLOW_PRIVATE_TARGETS: "true",
      WEBHOOK_EXTRA_CA_FILE: testCaFile,
      NOTIFIER_POLL_MS: "50",
      NOTIFIER_CLAIM_LEASE_MS: "16000",
      LOG_LEVEL: "WARN",
      ...(crashAt === undefined ? {} : { SWEEP_CRASH_AT: crashAt })
    }
  })

/** The event's claim lease and its open attempt's sending mark. */
const claimAndMark = (id: string) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) =>
    sql<{ claimed_until: Date | null; sent_at: Date | null }>`
      SELECT e.claimed_until, a.sent_at FROM events e
      JOIN delivery_attempts a ON a.event_id = e.id AND a.round = e.current_round AND a.attempt = e.attempts
      WHERE e.id = ${id}`).pipe(Effect.orDie, Effect.map((rows) => rows[0]!))

layer(ProcessWorld, { excludeTestServices: true, timeout: 180_000 })("notifier in worker processes", (it) => {
  it.scoped("a worker killed mid-attempt: the open attempt is closed as interrupted and the next one delivers", () =>
    Effect.gen(function*() {
      const receiver = yield* startTestReceiver(Hang)
      const scope = yield* seedScope({ url: receiver.url("/kill"), enabled: true })
      const env = yield* workerEnv()
      const event = yield* seedEvent(scope, new Date())
      const first = startTs("apps/worker/src/main.ts", env)
      // The first attempt reached the receiver, which holds it: kill the worker mid-attempt.
      yield* waitFor(Effect.sync(() => receiver.receivedAt("/kill").length), (n) => n === 1)
      yield* killed(first)
      expect(first.signalCode).toBe("SIGKILL")
      expect(yield* eventRow(event.id)).toMatchObject({ status: "delivering", attempts: 1 })
      expect(yield* attemptRows(event.id)).toMatchObject([{ attempt: 1, ended_at: null, outcome: null }])
      yield* receiver.answer(Ack)
      const second = startTs("apps/worker/src/main.ts", env)
      const row = yield* waitFor(eventRow(event.id), (r) => r.status === "delivered")
      second.kill("SIGTERM")
      expect(row).toMatchObject({ attempts: 2, current_round: 1, last_error: "interrupted: the worker stopped before the attempt finished" })
      expect(yield* attemptRows(event.id)).toMatchObject([
        { attempt: 1, outcome: "failed", http_status: null, error: "interrupted: the worker stopped before the attempt finished" },
        { attempt: 2, outcome: "delivered", http_status: 200, error: "" }
      ])
      const requests = receiver.receivedAt("/kill")
      expect(requests).toHaveLength(2)
      expect(Either.getOrThrow(openEnvelope(scope.webhookKey, JSON.parse(requests[1]!.body)))).toBe(event.payload)
    }))

  it.scoped("a worker killed after its claim, before sending: the next worker sends that same attempt once the claim runs out", () =>
    Effect.gen(function*() {
      const receiver = yield* startTestReceiver(Ack)
      const scope = yield* seedScope({ url: receiver.url("/claimed"), enabled: true })
      const event = yield* seedEvent(scope, new Date())
      const first = startTs("apps/worker/src/main.ts", yield* workerEnv("delivery:claimed"))
      yield* exited(first)
      expect(first.signalCode).toBe("SIGKILL")
      // Killed between the claim, which recorded attempt 1 as started, and its sending.
      expect(yield* eventRow(event.id)).toMatchObject({ status: "delivering", attempts: 1 })
      expect(yield* attemptRows(event.id)).toMatchObject([{ attempt: 1, ended_at: null }])
      const lost = yield* claimAndMark(event.id)
      expect(lost.sent_at).toBeNull()
      expect(lost.claimed_until).not.toBeNull()

      const second = startTs("apps/worker/src/main.ts", yield* workerEnv())
      yield* Effect.addFinalizer(() => Effect.sync(() => second.kill("SIGKILL")))
      const row = yield* eventually(eventRow(event.id), (r) => r.status === "delivered")
      // Attempt 1 of round 1, sent once: the dead worker's start neither counted nor moved the schedule.
      expect(row).toMatchObject({ attempts: 1, current_round: 1, last_error: "" })
      expect(row.delivered_at!.getTime()).toBeGreaterThanOrEqual(lost.claimed_until!.getTime())
      expect(yield* attemptRows(event.id)).toMatchObject([{ round: 1, attempt: 1, outcome: "delivered", http_status: 200, error: "" }])
      const requests = receiver.receivedAt("/claimed")
      expect(requests).toHaveLength(1)
      expect(Either.getOrThrow(openEnvelope(scope.webhookKey, JSON.parse(requests[0]!.body)))).toBe(event.payload)
    }))
})
