import { Effect } from "effect"
import { type ApiAnswer, answerOf, outcomeOf } from "../api/ApiAnswer.js"
import type { TenantClient } from "../api/TenantClient.js"
import type { Dice } from "../Dice.js"
import type { Trace } from "../Trace.js"
import type { Outcomes } from "./Outcomes.js"
import type { SimScope } from "./Population.js"
import { conflictAnswer, type ReplayKind, type WorkloadLedger } from "./WorkloadLedger.js"

/** One write as a tenant sends it to the API: its operation, path and body (request_id is added when sent). */
export interface HttpWrite {
  readonly scope: SimScope
  /** The operation's name, as the ledger and the trace name it. */
  readonly operation: string
  readonly path: string
  readonly body: Record<string, unknown>
  /** Error codes the workload expects of this write (a refused URL, a busy event). */
  readonly expected: ReadonlyArray<string>
  /** A refusal the contract saves under the request_id (a replay gets it again): a taken custom_id. */
  readonly savedRefusal?: string
  /** Other parameters under the same request_id, when sending them would be harmless: a conflicting replay. */
  readonly conflicting?: { readonly body: Record<string, unknown>; readonly path?: string }
}

/** A write whose first answer the contract saved, kept to be sent again later. */
interface SavedWrite {
  readonly operation: string
  readonly requestId: string
  readonly answer: string
  readonly again: Effect.Effect<ApiAnswer>
  readonly conflicting: Effect.Effect<ApiAnswer> | null
}

/**
 * The workload's writes, sent through the API in this process as a tenant sends them (signed,
 * with a request_id): sometimes as two concurrent duplicates, and kept so that a later step can
 * replay one (same request_id and body) or send a conflicting one (same request_id, other body).
 * Every comparison goes to the ledger, where an invariant checks that replays answered
 * identically and conflicts were refused as the contract says.
 */
export class Replays {
  private sent = 0
  private readonly saved: Array<SavedWrite> = []

  constructor(
    private readonly api: TenantClient,
    private readonly dice: Dice,
    private readonly trace: Trace,
    private readonly outcomes: Outcomes,
    private readonly ledger: WorkloadLedger
  ) {}

  private compare(kind: ReplayKind, operation: string, requestId: string, expected: string, actual: ApiAnswer): void {
    this.ledger.recordReplay({ kind, operation, requestId, expected, actual: actual.text })
    const same = kind === "conflict" ? actual.errorCode === "IDEMPOTENCY_CONFLICT" : actual.text === expected
    this.trace.record(`${kind} ${operation} ${requestId} ${outcomeOf(actual)} ${same ? "same" : "differs"}`)
  }

  /**
   * Sends `write` once (or as two concurrent duplicates, compared) and judges its answer; an
   * answer the contract saves is kept for later replays. The first answer, for the caller to read.
   */
  send(write: HttpWrite) {
    return Effect.gen(this, function*() {
      const requestId = `sim-request-${String(++this.sent).padStart(6, "0")}`
      const app = { appId: write.scope.appId, secret: write.scope.appSecret }
      const call = (body: Record<string, unknown>, path: string) =>
        Effect.map(this.api.call(app, "POST", path, { body: { ...body, request_id: requestId } }), answerOf)
      const concurrent = this.dice.chance(0.1)
      const [answer, twin] = concurrent
        ? yield* Effect.all([call(write.body, write.path), call(write.body, write.path)], { concurrency: 2 })
        : [yield* call(write.body, write.path), undefined]
      this.trace.record(`${write.operation} ${requestId} ${outcomeOf(answer)}`)
      this.ledger.recordWrite({ operation: write.operation, scope: write.scope.scope, requestId, body: write.body, answer: answer.text })
      if (twin !== undefined) this.compare("concurrent", write.operation, requestId, answer.text, twin)
      const saved = answer.status === 200 || (answer.errorCode !== undefined && answer.errorCode === write.savedRefusal)
      this.outcomes.judgeAnswer(write.operation, answer, saved ? [answer.errorCode ?? ""] : write.expected)
      if (saved) {
        const conflicting = write.conflicting
        this.saved.push({
          operation: write.operation,
          requestId,
          answer: answer.text,
          again: call(write.body, write.path),
          conflicting: conflicting === undefined ? null : call(conflicting.body, conflicting.path ?? write.path)
        })
      }
      return answer
    })
  }

  /** Sends a saved write again, later: the same body (a replay) or, when it has one, another (a conflict). */
  readonly replayOne = Effect.gen(this, function*() {
    if (this.saved.length === 0) return
    const write = this.dice.pick(this.saved)
    if (write.conflicting !== null && this.dice.chance(0.3)) {
      this.compare("conflict", write.operation, write.requestId, conflictAnswer, yield* write.conflicting)
    } else {
      this.compare("replay", write.operation, write.requestId, write.answer, yield* write.again)
    }
  })
}
