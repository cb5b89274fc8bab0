import { DepositRecord } from "@collector/api"
import { Schema } from "effect"

/**
 * The plaintext of `deposit.confirmed` and `deposit.reverted`: the same 24-field record the
 * deposit queries return (one schema, shared with the server's contract), plus the rule that the
 * event type and the status agree.
 */
export const DepositEvent = DepositRecord.pipe(
  Schema.filter((record) => record.event_type === `deposit.${record.status}` || "status must match the event type suffix")
)
export type DepositEvent = typeof DepositEvent.Type
