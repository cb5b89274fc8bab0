import { paramsDigest } from "@collector/api"
import { idempotent, type IdempotencyKey, type TenantScope } from "@collector/core"
import { Cause, Effect, Exit, Schema } from "effect"
import type { Dice } from "../Dice.js"
import type { Trace } from "../Trace.js"
import { failureTag, type Outcomes } from "./Outcomes.js"
import type { WorkloadServices } from "./Workload.js"
import { conflictAnswer, type ReplayKind, type WorkloadLedger } from "./WorkloadLedger.js"

/** One write as its API handler sends it: the operation's idempotency key and saved schemas, its body, its work. */
export interface IdempotentWrite<A, AI, B, BI> {
  readonly scope: TenantScope
  readonly operation: string
  /** The request body without request_id: what the digest covers. */
  readonly body: Record<string, unknown>
  readonly schemas: { readonly success: Schema.Schema<A, AI>; readonly rejection: Schema.Schema<B, BI> }
  readonly work: Effect.Effect<A, unknown, WorkloadServices>
  /** Failures the workload expects of this write (besides a saved rejection). */
  readonly expected: ReadonlyArray<string>
  /** Other parameters under the same key, when sending them would be harmless: a conflicting replay. */
  readonly conflicting?: { readonly body: Record<string, unknown>; readonly work: Effect.Effect<A, unknown, WorkloadServices> }
}

/** A write whose first answer was saved, kept to be sent again later. */
interface SavedWrite {
  readonly label: string
  readonly key: IdempotencyKey
  readonly answer: string
  readonly again: Effect.Effect<string, never, WorkloadServices>
  readonly conflicting: Effect.Effect<string, never, WorkloadServices> | null
}

/**
 * The workload's idempotent writes, sent as the API's handlers send them (`idempotent` with the
 * operation's key, a digest of the body, the saved schemas): sometimes as two concurrent
 * duplicates, and kept so that a later step can replay one (same key and body) or send a
 * conflicting one (same key, other body). Every comparison goes to the ledger, where an
 * invariant checks that replays answered identically and conflicts were refused.
 */
export class Replays {
  private sent = 0
  private readonly saved: Array<SavedWrite> = []

  constructor(
    private readonly dice: Dice,
    private readonly trace: Trace,
    private readonly outcomes: Outcomes,
    private readonly ledger: WorkloadLedger
  ) {}

  /** The canonical text of an answer: what replays must repeat. */
  private answerOf<A, AI, B, BI, E>(schemas: IdempotentWrite<A, AI, B, BI>["schemas"], exit: Exit.Exit<A, E>): string {
    if (Exit.isSuccess(exit)) return `ok ${Schema.encodeSync(Schema.parseJson(schemas.success))(exit.value)}`
    const failure = Cause.failureOption(exit.cause)
    if (failure._tag === "Some" && Schema.is(schemas.rejection)(failure.value)) {
      return `rejected ${Schema.encodeSync(Schema.parseJson(schemas.rejection))(failure.value)}`
    }
    return `failed ${failureTag(exit.cause)}`
  }

  private compare(kind: ReplayKind, label: string, key: IdempotencyKey, expected: string, actual: string): void {
    this.ledger.recordReplay({ kind, operation: key.operation, requestId: key.requestId, expected, actual })
    this.trace.record(`${kind} ${label} ${key.requestId} ${expected === actual ? "same" : "differs"}`)
  }

  /**
   * Sends `write` once (or as two concurrent duplicates, compared) and judges its answer; a
   * saved answer is kept for later replays. The first answer's exit, for the caller to read.
   */
  send<A, AI, B, BI>(label: string, write: IdempotentWrite<A, AI, B, BI>) {
    return Effect.gen(this, function*() {
      const key: IdempotencyKey = { tenantId: write.scope.tenantId, network: write.scope.network, operation: write.operation, requestId: `req-${++this.sent}` }
      const call = (body: Record<string, unknown>, work: Effect.Effect<A, unknown, WorkloadServices>) =>
        Effect.exit(idempotent(key, paramsDigest(body), write.schemas, work))
      const concurrent = this.dice.chance(0.1)
      const [exit, twin] = concurrent
        ? yield* Effect.all([call(write.body, write.work), call(write.body, write.work)], { concurrency: 2 })
        : [yield* call(write.body, write.work), undefined]
      const answer = this.answerOf(write.schemas, exit)
      this.trace.record(`${label} ${key.requestId} ${answer}`)
      if (twin !== undefined) this.compare("concurrent", label, key, answer, this.answerOf(write.schemas, twin))
      // A saved rejection is the operation's business answer: expected by definition.
      const rejection = Exit.isFailure(exit) && answer.startsWith("rejected") ? [failureTag(exit.cause)] : []
      this.outcomes.judge(label, exit, [...write.expected, ...rejection])
      if (answer.startsWith("ok") || answer.startsWith("rejected")) {
        const conflicting = write.conflicting
        this.saved.push({
          label,
          key,
          answer,
          again: Effect.map(call(write.body, write.work), (e) => this.answerOf(write.schemas, e)),
          conflicting: conflicting === undefined ? null : Effect.map(call(conflicting.body, conflicting.work), (e) => this.answerOf(write.schemas, e))
        })
      }
      return exit
    })
  }

  /** Sends a saved write again, later: the same body (a replay) or, when it has one, another (a conflict). */
  readonly replayOne = Effect.gen(this, function*() {
    if (this.saved.length === 0) return
    const write = this.dice.pick(this.saved)
    if (write.conflicting !== null && this.dice.chance(0.3)) {
      this.compare("conflict", write.label, write.key, conflictAnswer, yield* write.conflicting)
    } else {
      this.compare("replay", write.label, write.key, write.answer, yield* write.again)
    }
  })
}
