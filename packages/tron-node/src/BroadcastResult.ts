import { Chain } from "@collector/core"
import { Effect, Option, Schema } from "effect"
import { decodeNodeText, errorReply } from "./NodeReply.js"
import { BroadcastReply } from "./NodeResponses.js"

/**
 * The outcome of a broadcast reply. `{"result": true}` is Accepted; DUP_TRANSACTION_ERROR means
 * the node already holds the transaction, which is as good. Every other code (SIGERROR,
 * TAPOS_ERROR, BANDWITH_ERROR, SERVER_BUSY, ...) is Rejected with the node's text, hex decoded.
 * A reply that cannot be read leaves the outcome unknown: ChainUnavailable, never Rejected, so
 * the caller does not rebuild a transaction that may have been relayed.
 */
export const broadcastOutcome = (json: unknown): Effect.Effect<Chain.BroadcastOutcome, Chain.ChainUnavailable> =>
  Option.match(errorReply(json), {
    onSome: ({ code, message }) => Effect.succeed<Chain.BroadcastOutcome>({ _tag: "Rejected", code, message }),
    onNone: () =>
      Schema.decodeUnknown(BroadcastReply)(json).pipe(
        Effect.mapError(() => new Chain.ChainUnavailable({ reason: `broadcast returned an unreadable reply: ${JSON.stringify(json).slice(0, 200)}` })),
        Effect.map((reply): Chain.BroadcastOutcome => {
          if (reply.result) return { _tag: "Accepted" }
          if (reply.code === "DUP_TRANSACTION_ERROR") return { _tag: "Duplicate" }
          return { _tag: "Rejected", code: reply.code ?? "UNKNOWN", message: decodeNodeText(reply.message ?? "") }
        })
      )
  })
