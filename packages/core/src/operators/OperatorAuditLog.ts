import { Context, type Effect } from "effect"

/** One console action as it was asked and how it ended. */
export interface OperatorAction {
  /** The operator token that asked (a session's token). */
  readonly tokenId: string
  /** What was asked, such as `redeliver_event` or `pause_automation`. */
  readonly action: string
  /** What it was asked of, such as `event 42` or `tenant 7 nile`. */
  readonly target: string
  /** `done`, `unchanged` (it was so already) or `refused: <reason>`. */
  readonly outcome: string
  readonly at: Date
}

export interface AuditEntry extends OperatorAction {
  readonly id: string
}

/** Port: the operators' audit trail; written once per action, never changed. */
export class OperatorAuditLog extends Context.Tag("@collector/core/OperatorAuditLog")<
  OperatorAuditLog,
  {
    readonly record: (action: OperatorAction) => Effect.Effect<AuditEntry>
    /** The latest entries, newest first. */
    readonly recent: (limit: number) => Effect.Effect<ReadonlyArray<AuditEntry>>
  }
>() {}
