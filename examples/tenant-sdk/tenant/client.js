// TENANT CODE. The API through @collector/sdk: the SDK signs every request, fetches the access
// token and refreshes it before it expires, retries timeouts (writes keep their request_id, so a
// repeat is answered from the saved result) and turns error envelopes into typed errors.
//
// The SDK is built on Effect: its operations are Effect values, run here with Effect.runPromise
// so the rest of this file is plain async JavaScript. `effect` and `@effect/platform` are the
// SDK's peer dependencies; nothing else is needed.
import { makeCollectorClient } from "@collector/sdk"
import { FetchHttpClient } from "@effect/platform"
import { Cause, Effect, Exit, Redacted } from "effect"
import { randomUUID } from "node:crypto"

/**
 * The SDK's failure as a thrown Error: an API error envelope (InvalidArgument, Conflict,
 * Unauthenticated, ...; the typed error stays in `cause`) or a transport failure.
 */
const toError = (cause) => {
  const failure = Cause.squash(cause)
  if (failure instanceof Error) return failure
  const { error_code, message, trace_id } = failure ?? {}
  const error = new Error(`${error_code ?? "API error"}: ${message ?? String(failure)}${trace_id ? ` (trace ${trace_id})` : ""}`)
  error.cause = failure
  return error
}

const run = async (effect) => {
  const exit = await Effect.runPromiseExit(effect)
  if (Exit.isSuccess(exit)) return exit.value
  throw toError(exit.cause)
}

/** A connected client for one app (one tenant on one network). */
export const connect = async ({ baseUrl, appId, appSecret }) => {
  const client = await run(
    makeCollectorClient({ baseUrl, appId, appSecret: Redacted.make(appSecret), timeout: "10 seconds" }).pipe(
      Effect.provide(FetchHttpClient.layer)
    )
  )

  /** One page of deposit records (page_size 1 to 100), deposit ID descending. Query values travel as strings. */
  const depositPage = ({ page = 1, pageSize = 100, address } = {}) =>
    run(client.deposits.listDeposits({
      urlParams: { page: String(page), page_size: String(pageSize), ...(address ? { address } : {}) }
    }))

  return {
    /**
     * An access token, explicitly. Not needed for the calls below (the client gets and refreshes
     * its own), but it shows the signed token request: { access_token, token_type, expires_in, expires_at }.
     */
    issueToken: () => run(client.auth.issueToken()),

    /**
     * A receiving wallet for one of the tenant's customers. `request_id` makes the write
     * idempotent: keep it with the customer's request and send the same one again after a
     * timeout or crash, and the server answers with the wallet it created the first time.
     */
    createWallet: (customId, requestId = randomUUID()) =>
      run(client.wallets.createWallet({ payload: { custom_id: customId, request_id: requestId } })),

    /** Where the service delivers notifications: an https URL, port 443 unless the operator allows others. */
    setWebhook: (url, requestId = randomUUID()) =>
      run(client.settings.setWebhook({ payload: { url, enabled: true, request_id: requestId } })),

    depositPage,

    /**
     * A notification's delivery record, by event ID (a deposit record's `event_id`): `status` is
     * pending, delivering, delivered or failed; `last_error` says why an attempt failed.
     */
    webhookEvent: (eventId) => run(client.webhooks.getEvent({ path: { id: eventId } })),

    /**
     * Every deposit record, page after page. Pages are offsets into a list whose newest entries
     * come first, so a deposit arriving while paging shifts the rest: an item may be seen twice.
     * Book them through the revision rule (ledger.js) and that does no harm.
     */
    async *allDeposits({ pageSize = 100, address } = {}) {
      for (let page = 1; ; page++) {
        const result = await depositPage({ page, pageSize, address })
        yield* result.items
        if (result.items.length === 0 || page * result.page_size >= result.total) return
      }
    }
  }
}
