// The tenant's own application code, the thing under test: customer balances kept from the
// collector's webhooks. It receives each delivery with the SDK's `handleWebhook` (verify, open,
// de-duplicate, apply only a higher deposit revision) and keeps each deposit's latest state, so
// a reverted deposit stops counting whatever order the events come in.
import { DepositRevisionStore, handleWebhook, makeMemoryDepositRevisionStore, makeMemoryWebhookEventStore, WebhookEventStore } from "@collector/sdk"
import { Effect } from "effect"

/** A ledger for one app: `receive` books one webhook request and returns the SDK's outcome. */
export const makeLedger = ({ appId, webhookKey }) => {
  // In memory because this is a test; a real receiver keeps both stores in its database.
  const events = makeMemoryWebhookEventStore()
  const revisions = makeMemoryDepositRevisionStore()
  /** Deposit ID -> the customer it pays, its amount and its status in the latest revision booked. */
  const deposits = new Map()

  const receive = ({ body, headers }) =>
    handleWebhook(
      { body, headers, webhookKey, appId },
      {
        onDeposit: (deposit) =>
          Effect.sync(() => deposits.set(deposit.id, { customId: deposit.custom_id, amount: BigInt(deposit.amount), status: deposit.status })),
        onSweep: () => Effect.void
      }
    ).pipe(
      Effect.provideService(WebhookEventStore, events),
      Effect.provideService(DepositRevisionStore, revisions),
      Effect.map((handled) => handled.outcome)
    )

  /** What a customer has been paid: the sum of their deposits that stand confirmed. */
  const balanceOf = (customId) =>
    [...deposits.values()].filter((d) => d.customId === customId && d.status === "confirmed").reduce((sum, d) => sum + d.amount, 0n)

  return { receive, balanceOf }
}
