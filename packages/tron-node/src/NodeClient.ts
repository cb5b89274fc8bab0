import { Chain, Kernel, Metrics } from "@collector/core"
import { HttpClient, HttpClientRequest } from "@effect/platform"
import { Cause, Data, Duration, Effect, Exit, Option, Redacted, Schedule } from "effect"
import type { NodeConfig } from "./NodeConfig.js"
import { nodeRequestDuration, nodeRequests, type NodeRequestOutcome } from "./NodeMetrics.js"
import { makeRequestBudget, type RequestBudget } from "./RequestBudget.js"

/** `/wallet/*` goes to the full node, `/walletsolidity/*` to the solidity node. */
export type NodePath = `/wallet/${string}` | `/walletsolidity/${string}`

/** A request body: JSON without bigints, which `JSON.stringify` cannot write. */
export type NodeBody = Readonly<Record<string, string | number | boolean>>

export interface NodeClient {
  /**
   * POSTs a read and returns the parsed JSON (java-tron answers most errors with HTTP 200, so the
   * body is the caller's to judge). Retried with backoff on 429, 5xx, timeouts and transport
   * failures. Pass `once` for a request that must not be repeated behind the caller's back.
   */
  readonly post: (
    path: NodePath,
    body: NodeBody,
    options?: { readonly once?: boolean }
  ) => Effect.Effect<unknown, Chain.ChainUnavailable | Chain.ChainRejected>
  /**
   * The same request, answering the body text unparsed: for a hot path that reads a few fields
   * of a large reply and parses it its own way (see TransferLogs).
   */
  readonly postText: (path: NodePath, body: NodeBody) => Effect.Effect<string, Chain.ChainUnavailable | Chain.ChainRejected>
}

/** One failed attempt; `retryable` failures may succeed when simply tried again. */
class AttemptFailed extends Data.TaggedError("AttemptFailed")<{
  readonly retryable: boolean
  readonly error: Chain.ChainUnavailable | Chain.ChainRejected
  readonly outcome: NodeRequestOutcome
}> {}

const unavailable = (retryable: boolean, reason: string, outcome: NodeRequestOutcome) =>
  new AttemptFailed({ retryable, error: new Chain.ChainUnavailable({ reason }), outcome })

/**
 * The requests that follow the chain (the scanner's blocks and tips) and that send a transaction;
 * every other one (account reads, estimates, receipts) can wait behind them (`takeBackground`).
 */
const urgentPaths: ReadonlySet<NodePath> = new Set<NodePath>(["/wallet/getblock", "/walletsolidity/getblock", "/wallet/gettransactioninfobyblocknum", "/wallet/broadcasthex"])

/** A node's host: full and solidity APIs on one host (TronGrid) share one budget. */
const originOf = (url: string) => new URL(url).origin

export const makeNodeClient = (config: NodeConfig): Effect.Effect<NodeClient, never, HttpClient.HttpClient> =>
  Effect.gen(function*() {
    // No span of the HTTP client's: the scanner makes two requests a block, each such span costs
    // URL parsing and header attributes on that hot path (docs/benchmarks.md), and it would record
    // the API key's header; `traced` below makes one span per request instead, only while tracing
    // is on. Failed attempts are logged.
    const client = HttpClient.withTracerDisabledWhen(yield* HttpClient.HttpClient, () => true)
    const budgets = new Map<string, RequestBudget>()
    for (const url of [config.fullNodeUrl, config.solidityUrl]) {
      const origin = originOf(url)
      if (!budgets.has(origin)) budgets.set(origin, yield* makeRequestBudget(config.requestsPerSecond))
    }
    const headers: Record<string, string> = { accept: "application/json" }
    if (Option.isSome(config.apiKey)) headers["TRON-PRO-API-KEY"] = Redacted.value(config.apiKey.value)
    const timeout = Duration.format(config.requestTimeout)

    /**
     * Counts an attempt and its time once it ends (not when the caller gave up on it). The clock
     * is the runtime's high-resolution one: a local node answers in well under a millisecond.
     */
    const measured = (path: NodePath) => <A>(effect: Effect.Effect<A, AttemptFailed>) =>
      Effect.suspend(() => {
        const started = performance.now()
        return Effect.onExit(effect, (exit) =>
          Effect.sync(() => {
            if (Exit.isInterrupted(exit)) return
            const outcome = Exit.isSuccess(exit) ? "ok" : Option.match(Cause.failureOption(exit.cause), { onNone: () => "transport" as const, onSome: (failure) => failure.outcome })
            nodeRequests(config.network, path, outcome).unsafeUpdate(1, Metrics.noExtraLabels)
            nodeRequestDuration(config.network, path).unsafeUpdate((performance.now() - started) / 1000, Metrics.noExtraLabels)
          }))
      })

    const attempt = (url: string, path: NodePath, body: NodeBody) =>
      Effect.gen(function*() {
        const request = HttpClientRequest.post(url).pipe(
          HttpClientRequest.setHeaders(headers),
          HttpClientRequest.bodyText(JSON.stringify(body), "application/json")
        )
        const response = yield* client.execute(request)
        const text = yield* response.text
        const status = response.status
        if (status === 429 || status >= 500) return yield* unavailable(true, `${path}: HTTP ${status}`, "unavailable")
        if (status < 200 || status >= 300) {
          return yield* unavailable(false, `${path}: HTTP ${status} ${text.slice(0, 200)}`.trim(), "rejected")
        }
        return text
      }).pipe(
        Effect.catchTags({
          RequestError: (error) => unavailable(true, `${path}: ${error.message}`, "transport"),
          ResponseError: (error) => unavailable(true, `${path}: ${error.message}`, "transport")
        }),
        // The attempt is interrupted at the deadline, which aborts the fetch.
        Effect.timeoutFail({ duration: config.requestTimeout, onTimeout: () => unavailable(true, `${path}: no reply within ${timeout}`, "timeout") }),
        measured(path)
      )

    const retrySchedule = Schedule.exponential(config.retryBaseDelay, 2).pipe(
      Schedule.jittered,
      Schedule.intersect(Schedule.recurs(config.retries))
    )

    const send = (path: NodePath, body: NodeBody, options?: { readonly once?: boolean }) => Effect.suspend(() => {
      const base = path.startsWith("/walletsolidity/") ? config.solidityUrl : config.fullNodeUrl
      const budget = budgets.get(originOf(base))!
      let attempts = 0
      const once = (urgentPaths.has(path) ? budget.take : budget.takeBackground).pipe(
        Effect.zipRight(attempt(base + path, path, body)),
        Effect.tapError((failure) =>
          Effect.suspend(() => {
            attempts++
            return Effect.logDebug(`TRON ${config.network} node request failed`).pipe(
              Effect.annotateLogs({ path, attempt: attempts, reason: failure.error.reason })
            )
          })
        )
      )
      const tried = options?.once === true ? once : Effect.retry(once, { schedule: retrySchedule, while: (failure) => failure.retryable })
      return tried.pipe(
        Effect.mapError((failure) =>
          attempts > 1 && failure.error._tag === "ChainUnavailable"
            ? new Chain.ChainUnavailable({ reason: `${failure.error.reason} (after ${attempts} attempts)` })
            : failure.error
        )
      )
    })
    /**
     * One span per request, its retries inside, while a tracer is on: the endpoint and how it
     * ended (`ok`, `unavailable`, `rejected`). The HTTP client's own span stays off: it would
     * record the URL and every header, the API key's among them.
     */
    const traced = (path: NodePath) =>
      Kernel.traced(`tron.node ${path}`, { kind: "client", attributes: { "tron.network": config.network, "tron.node.endpoint": path } }, (exit) => ({
        "tron.node.outcome": Exit.isSuccess(exit)
          ? "ok"
          : Option.match(Cause.failureOption(exit.cause), {
            onNone: () => (Cause.isInterruptedOnly(exit.cause) ? "interrupted" : "defect"),
            onSome: (error) => (error as Chain.ChainUnavailable | Chain.ChainRejected)._tag === "ChainRejected" ? "rejected" : "unavailable"
          })
      }))

    const postText: NodeClient["postText"] = (path, body) => traced(path)(send(path, body))

    const post: NodeClient["post"] = (path, body, options) =>
      traced(path)(Effect.flatMap(send(path, body, options), (text) => parseNodeJson(path, text, (t) => Kernel.LosslessJson.parse(t, "unsafeIntegersAsText"))))

    return { post, postText }
  })

/** Parses a reply's text with `parse`; a body that is not JSON is ChainRejected, never retried. */
export const parseNodeJson = (path: NodePath, text: string, parse: (text: string) => unknown = JSON.parse) =>
  Effect.try({
    try: () => parse(text),
    catch: () => new Chain.ChainRejected({ reason: `${path} returned a body that is not JSON: ${text.slice(0, 200)}` })
  })
