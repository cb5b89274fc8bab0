import { Context, type Effect } from "effect"

/** One console action as it was asked and how it ended. */
export interface OperatorAction {
  /** The operator token that asked (a session's token). */
  readonly tokenId: string
  /** What was asked, such as `redeliver_event` or `pause_automation`. */
  readonly action: string
  /** What it was asked of, such as `event 42` or `tenant 7 nile`. */
  readonly target: string
  /**
   * `started` when recorded, before the action runs; then `done: …`, `unchanged: …` (it was so
   * already) or `refused: …`. An entry left `started` is an action whose process stopped before
   * its outcome was written: it may or may not have taken effect.
   */
  readonly outcome: string
  readonly at: Date
}

export interface AuditEntry extends OperatorAction {
  readonly id: string
}

/** The outcome of an entry recorded before its action ran. */
export const actionStarted = "started"

/**
 * Port: the operators' audit trail. An entry is recorded before its action runs (outcome
 * `started`) and settled once with the outcome, so no action takes effect without its entry.
 */
export class OperatorAuditLog extends Context.Tag("@collector/core/OperatorAuditLog")<
  OperatorAuditLog,
  {
    readonly record: (action: OperatorAction) => Effect.Effect<AuditEntry>
    /** Writes the outcome of an entry still `started`: true; false when it had one already (the first stays). */
    readonly settle: (id: string, outcome: string) => Effect.Effect<boolean>
    /** The latest entries, newest first. */
    readonly recent: (limit: number) => Effect.Effect<ReadonlyArray<AuditEntry>>
  }
>() {}
