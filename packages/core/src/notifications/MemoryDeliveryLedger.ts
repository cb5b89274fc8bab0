import { Effect, Layer } from "effect"
import type { TenantId } from "../kernel/Ids.js"
import {
  type AttemptFinish,
  type ClaimRequest,
  DeliveryLedger,
  type DueEvent,
  type HeldAttempt,
  type NextStep
} from "./DeliveryLedger.js"
import { attemptBlocksStart, attemptHeld, claimHeld, eventClaimable, eventDue, eventOpen, leaseHeld, roundGoesOn, webhookConfigured } from "./DeliveryRules.js"
import * as RowRule from "../kernel/RowRule.js"
import { MemoryDatabase } from "../memory/MemoryDatabase.js"
import { checkedAttempt, checkedEvent, maxAttemptNumber } from "../memory/MemoryEventChecks.js"
import { apps, deliveryAttempts, type DeliveryAttemptRow, deliveryRounds, type EventRow, events, keyOf, tenantSettings } from "../memory/MemoryTables.js"

// The rules are core's (DeliveryRules), the same the PostgreSQL driver renders into its statements.
const isOpen = (row: EventRow) => RowRule.holds(eventOpen, row, undefined)

const isDue = (row: EventRow, now: Date) => RowRule.holds(eventDue, row, { now })

const isClaimable = (row: EventRow, now: Date) => RowRule.holds(eventClaimable, row, { now })

// Claims go by due time, then by ID as a bigint ("10" after "9").
const byDueThenId = (a: EventRow, b: EventRow) => {
  const due = a.nextAttempt!.getTime() - b.nextAttempt!.getTime()
  if (due !== 0) return due
  const ia = BigInt(a.id)
  const ib = BigInt(b.id)
  return ia < ib ? -1 : ia > ib ? 1 : 0
}

const statusOf = (next: NextStep) => next._tag === "Delivered" ? "delivered" : next._tag === "Retry" ? "pending" : "failed"

/** Under its claim (holder and round) at the attempt count `attempt`: the write of a held attempt may go on. */
const holds = (row: EventRow | undefined, { attempt, claim }: HeldAttempt): row is EventRow =>
  row !== undefined && RowRule.holds(attemptHeld, row, { round: claim.round, holder: claim.holder, attempt })

export const make = Effect.gen(function*() {
  const db = yield* MemoryDatabase
  const table = db.table(events)
  const rounds = db.table(deliveryRounds)
  const attempts = db.table(deliveryAttempts)
  const settings = db.table(tenantSettings)

  const attemptKey = (eventId: string, round: number, attempt: number) => keyOf(eventId, round, attempt)
  const openAttempt = (eventId: string, round: number, attempt: number) => {
    const row = attempts.get(attemptKey(eventId, round, attempt))
    return row !== undefined && row.endedAt === null ? row : undefined
  }

  /** The attempt rows of one round (at most 20, by the table's CHECK), by key rather than by scanning. */
  const roundAttempts = (eventId: string, round: number) => {
    const found: Array<DeliveryAttemptRow> = []
    for (let attempt = 1; attempt <= maxAttemptNumber; attempt++) {
      const row = attempts.get(attemptKey(eventId, round, attempt))
      if (row !== undefined) found.push(row)
    }
    return found
  }

  const updateEvent = (id: string, change: (row: EventRow) => EventRow) => table.update(id, (row) => checkedEvent(change(row)))

  /**
   * What the claim may pick, as the PostgreSQL statement ranks it: per tenant with open events on
   * the network, its first due and unclaimed events (by due time, then ID) up to its free share;
   * then every tenant's first before anyone's second, and `limit` of those.
   */
  const pick = (r: ClaimRequest): Array<EventRow> => {
    const candidates = new Map<TenantId, Array<EventRow>>()
    for (const row of table.values()) {
      if (row.network !== r.network || !isOpen(row)) continue
      let mine = candidates.get(row.tenantId)
      if (mine === undefined) candidates.set(row.tenantId, mine = [])
      if (isClaimable(row, r.now)) mine.push(row)
    }
    const ranked: Array<{ readonly row: EventRow; readonly rank: number }> = []
    for (const [tenant, rows] of candidates) {
      const share = Math.min(Math.max(r.perTenant - (r.held.get(tenant) ?? 0), 0), r.limit)
      rows.sort(byDueThenId).slice(0, share).forEach((row, i) => ranked.push({ row, rank: i + 1 }))
    }
    ranked.sort((a, b) => a.rank - b.rank || byDueThenId(a.row, b.row))
    return ranked.slice(0, Math.max(r.limit, 0)).map(({ row }) => row)
  }

  /** The URL the claim starts the next attempt with, or null when the event cannot go on as it is. */
  const startUrl = (row: EventRow, r: ClaimRequest): string | null => {
    const blocked = roundAttempts(row.id, row.currentRound).some((a) =>
      RowRule.holds(attemptBlocksStart, { attempt: a.attempt, endedAt: a.endedAt, eventAttempts: row.attempts }, undefined)
    )
    if (blocked) return null
    if (row.roundUrl === null) {
      const config = settings.get(keyOf(row.tenantId, row.network))
      return config !== undefined && RowRule.holds(webhookConfigured, config, undefined) ? config.webhookUrl : null
    }
    return RowRule.holds(roundGoesOn, row, { now: r.now, maxAttempts: r.maxAttempts }) ? row.roundUrl : null
  }

  const claimOne = (picked: EventRow, r: ClaimRequest): DueEvent => {
    const url = startUrl(picked, r)
    const newRound = picked.roundUrl === null
    // Read before this claim records its own attempt: only an attempt left open before counts.
    const left = roundAttempts(picked.id, picked.currentRound).find((a) => a.endedAt === null)
    const row = updateEvent(picked.id, (e) => ({
      ...e,
      claimedBy: r.holder,
      claimedUntil: r.leaseUntil,
      ...(url === null ? {} : { attempts: e.attempts + 1, status: "delivering" }),
      ...(url !== null && newRound ? { roundUrl: url, roundStartedAt: r.now, deadlineAt: r.roundDeadline } : {})
    }))
    if (url !== null && newRound && !rounds.has(keyOf(row.id, row.currentRound))) {
      rounds.put(keyOf(row.id, row.currentRound), {
        id: db.nextId("deliveryRound"),
        eventId: row.id,
        round: row.currentRound,
        url,
        startedAt: r.now,
        deadlineAt: r.roundDeadline,
        endedAt: null,
        outcome: null,
        reason: ""
      })
    }
    let started = false
    if (url !== null && !attempts.has(attemptKey(row.id, row.currentRound, row.attempts))) {
      attempts.put(attemptKey(row.id, row.currentRound, row.attempts), checkedAttempt({
        id: db.nextId("deliveryAttempt"),
        eventId: row.id,
        round: row.currentRound,
        attempt: row.attempts,
        url,
        startedAt: r.now,
        sentAt: null,
        endedAt: null,
        durationMs: null,
        httpStatus: null,
        responseExcerpt: "",
        error: "",
        outcome: null
      }))
      started = true
    }
    const app = db.table(apps).find((a) => a.tenantId === row.tenantId && a.network === row.network)
    // No settings row is the default configuration: no URL, disabled.
    const config = row.roundUrl === null ? settings.get(keyOf(row.tenantId, row.network)) : undefined
    return {
      eventId: row.id,
      tenantId: row.tenantId,
      network: row.network,
      eventType: row.eventType,
      payload: row.payload,
      round: row.currentRound,
      attempts: row.attempts,
      roundUrl: row.roundUrl,
      roundStartedAt: row.roundStartedAt,
      deadlineAt: row.deadlineAt,
      lastError: row.lastError,
      app: app === undefined ? null : { appId: app.appId, webhookKey: app.webhookKey },
      openAttempt: left === undefined ? null : { attempt: left.attempt, startedAt: left.startedAt, sent: left.sentAt !== null },
      webhook: row.roundUrl === null ? { url: config?.webhookUrl ?? "", enabled: config?.webhookEnabled ?? false } : null,
      started: started && row.roundUrl !== null ? { attempt: row.attempts, url: row.roundUrl, startedAt: r.now } : null
    }
  }

  return DeliveryLedger.of({
    claimDue: (r) => db.atomically(() => pick(r).map((row) => claimOne(row, r))),

    // The event must be held, unexpired: a lease that ran out may be taken over at any moment.
    markSending: (items, at) =>
      db.atomically(() => {
        const held = new Set<string>()
        for (const item of items) {
          const row = table.get(item.claim.eventId)
          if (holds(row, item) && RowRule.holds(leaseHeld, row, { now: at })) held.add(row.id)
        }
        const marked: Array<string> = []
        const seen = new Set<string>()
        for (const { attempt, claim } of items) {
          const key = attemptKey(claim.eventId, claim.round, attempt)
          if (!held.has(claim.eventId) || seen.has(key) || openAttempt(claim.eventId, claim.round, attempt) === undefined) continue
          seen.add(key)
          attempts.update(key, (a) => ({ ...a, sentAt: at }))
          marked.push(claim.eventId)
        }
        return marked
      }),

    // Under the held claim (expired or not: only a takeover loses it), with the attempt open and unmarked.
    withdrawAttempts: (items) =>
      db.atomically(() => {
        const moved = new Set<string>()
        for (const item of items) {
          const unsent = openAttempt(item.claim.eventId, item.claim.round, item.attempt)
          if (holds(table.get(item.claim.eventId), item) && unsent !== undefined && unsent.sentAt === null) moved.add(item.claim.eventId)
        }
        for (const id of moved) {
          updateEvent(id, (e) => ({ ...e, attempts: e.attempts - 1, status: "pending", claimedBy: null, claimedUntil: null }))
        }
        for (const { attempt, claim } of items) {
          if (moved.has(claim.eventId)) attempts.delete(attemptKey(claim.eventId, claim.round, attempt))
        }
        return [...moved]
      }),

    failNewRound: (claim, round) =>
      db.atomically(() => {
        const row = table.get(claim.eventId)
        if (row === undefined || !RowRule.holds(claimHeld, row, claim) || row.roundUrl !== null) return
        updateEvent(row.id, (e) => ({
          ...e,
          roundUrl: "",
          roundStartedAt: round.at,
          deadlineAt: round.deadlineAt,
          status: "failed",
          nextAttempt: null,
          lastError: round.reason,
          claimedBy: null,
          claimedUntil: null
        }))
        const key = keyOf(row.id, claim.round)
        if (rounds.has(key)) return
        rounds.put(key, {
          id: db.nextId("deliveryRound"),
          eventId: row.id,
          round: claim.round,
          url: "",
          startedAt: round.at,
          deadlineAt: round.deadlineAt,
          endedAt: round.at,
          outcome: "failed",
          reason: round.reason
        })
      }),

    endRound: (claim, at, reason) =>
      db.atomically(() => {
        const row = table.get(claim.eventId)
        if (row === undefined || !RowRule.holds(claimHeld, row, claim)) return
        updateEvent(row.id, (e) => ({ ...e, status: "failed", nextAttempt: null, lastError: reason, claimedBy: null, claimedUntil: null }))
        const key = keyOf(row.id, claim.round)
        const open = rounds.get(key)
        if (open !== undefined && open.endedAt === null) rounds.put(key, { ...open, endedAt: at, outcome: "failed", reason })
      }),

    // An item moves its event only under its held claim, at the attempt's count, with the attempt
    // still open; only then are its attempt closed and its round ended. The same batch written
    // again finds each one closed and released, and skips it. Where several items match one row,
    // the first is used.
    finishAttempts: (finishes) =>
      db.atomically(() => {
        const moved = new Map<string, AttemptFinish>()
        for (const finish of finishes) {
          const { attempt, claim } = finish
          if (!moved.has(claim.eventId) && holds(table.get(claim.eventId), finish) && openAttempt(claim.eventId, claim.round, attempt) !== undefined) {
            moved.set(claim.eventId, finish)
          }
        }
        for (const [id, { next, record }] of moved) {
          updateEvent(id, (e) => ({
            ...e,
            status: statusOf(next),
            nextAttempt: next._tag === "Retry" ? next.at : null,
            lastError: record.delivered ? e.lastError : next._tag === "RoundFailed" ? next.reason : record.error,
            deliveredAt: record.delivered ? record.endedAt : e.deliveredAt,
            claimedBy: null,
            claimedUntil: null
          }))
        }
        const closed = new Set<string>()
        const ended = new Set<string>()
        for (const { attempt, claim, next, record } of finishes) {
          if (!moved.has(claim.eventId)) continue
          const key = attemptKey(claim.eventId, claim.round, attempt)
          if (!closed.has(key) && openAttempt(claim.eventId, claim.round, attempt) !== undefined) {
            closed.add(key)
            attempts.update(key, (a) => ({
              ...a,
              endedAt: record.endedAt,
              durationMs: record.durationMs,
              httpStatus: record.httpStatus,
              responseExcerpt: record.responseExcerpt,
              error: record.error,
              outcome: record.delivered ? "delivered" : "failed"
            }))
          }
          const roundKey = keyOf(claim.eventId, claim.round)
          const round = rounds.get(roundKey)
          if (next._tag === "Retry" || ended.has(roundKey) || round === undefined || round.endedAt !== null) continue
          ended.add(roundKey)
          rounds.put(roundKey, {
            ...round,
            endedAt: record.endedAt,
            outcome: next._tag === "Delivered" ? "delivered" : "failed",
            reason: next._tag === "RoundFailed" ? next.reason : ""
          })
        }
      }),

    release: (claims) =>
      db.atomically(() => {
        for (const claim of claims) {
          const row = table.get(claim.eventId)
          if (row !== undefined && row.claimedBy === claim.holder) updateEvent(row.id, (e) => ({ ...e, claimedBy: null, claimedUntil: null }))
        }
      }),

    handBack: (network, holders) =>
      db.atomically(() =>
        table.filter((row) => row.network === network && row.claimedBy !== null && holders.includes(row.claimedBy)).map((row) => {
          updateEvent(row.id, (e) => ({ ...e, claimedBy: null, claimedUntil: null }))
          return row.id
        })
      ),

    // Every open event due by `now`, claimed or not.
    backlog: (network, now) =>
      db.atomically(() => {
        let due = 0
        let oldest: Date | null = null
        for (const row of table.values()) {
          if (row.network !== network || !isDue(row, now)) continue
          due++
          if (oldest === null || row.nextAttempt!.getTime() < oldest.getTime()) oldest = row.nextAttempt
        }
        return { due, oldestDueAt: oldest }
      })
  })
})

export const layer = Layer.effect(DeliveryLedger, make)
