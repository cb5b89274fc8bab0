// The kit's copy of the core's test transport (core/src/testing), so that the kit loads nothing of
// the core's testing entry, whose contract suites import vitest: the kit runs under any test runner.
import { Clock, Context, Duration, Effect, Either, Layer } from "effect"
import {
  DeliveryFailed,
  type DeliveryRequest,
  type DeliveryResult,
  DeliveryTransport
} from "@collector/core"
import type { ResolvedTarget } from "@collector/core"

/** How the receiver behind a URL answers. */
export type ScriptedReply =
  /** An HTTP response of any kind (the dispatcher judges it). */
  | { readonly _tag: "Respond"; readonly status: number; readonly body: string; readonly location?: string }
  /** No response: the connection, TLS or protocol failed, or the response window closed. */
  | { readonly _tag: "Fail"; readonly kind: DeliveryFailed["kind"]; readonly message: string }
  /** The request is read and never answered (the POST stays open until abandoned). */
  | { readonly _tag: "Hang" }
  /** `reply` once `after` has passed on the Clock (a TestClock must be moved on). */
  | { readonly _tag: "Slow"; readonly after: Duration.DurationInput; readonly reply: ScriptedReply }

/** The contract's acknowledgement. */
export const ackReply: ScriptedReply = { _tag: "Respond", status: 200, body: '{"code":0,"message":"ok"}' }
export const serverErrorReply: ScriptedReply = { _tag: "Respond", status: 500, body: '{"code":1,"message":"boom"}' }
export const hangReply: ScriptedReply = { _tag: "Hang" }

/** A request as it reached its receiver: which of its checked addresses took it, and when. */
export interface ReceivedRequest extends DeliveryRequest {
  readonly target: ResolvedTarget
  readonly at: Date
}

export interface TestDeliveryTransportOptions {
  /** Most characters of a response body read (standing for the real transport's bytes); a longer one is cut and marked truncated. */
  readonly maxResponseLength?: number
}

/**
 * In-memory receivers behind a DeliveryTransport: every POST is taken by the first of its
 * checked addresses that can be reached (an unreachable one is skipped, as a refused connection
 * is) and answered as the test scripted for its URL. Results are handed over one by one as they
 * are known; POSTs still open when `postEach` is interrupted are abandoned and never reported.
 */
export class TestDeliveryTransport extends Context.Tag("@collector/testkit/TestDeliveryTransport")<
  TestDeliveryTransport,
  {
    /** How requests to `url` are answered from now on; every URL when none is given. */
    readonly answer: (reply: ScriptedReply, url?: string) => void
    /** Connections to this address fail from now on. */
    readonly unreachable: (address: string) => void
    /** Every request received so far, in arrival order. */
    readonly received: () => ReadonlyArray<ReceivedRequest>
    readonly receivedAt: (url: string) => ReadonlyArray<ReceivedRequest>
  }
>() {
  static layer(options: TestDeliveryTransportOptions = {}): Layer.Layer<TestDeliveryTransport | DeliveryTransport> {
    return Layer.effectContext(Effect.sync(() => {
      const { control, transport } = make(options)
      return Context.make(TestDeliveryTransport, control).pipe(Context.add(DeliveryTransport, transport))
    }))
  }
}

const defaultMaxResponseLength = 64 * 1024

const make = (options: TestDeliveryTransportOptions) => {
  const maxLength = options.maxResponseLength ?? defaultMaxResponseLength
  const received: Array<ReceivedRequest> = []
  const byUrl = new Map<string, ScriptedReply>()
  let fallback: ScriptedReply = ackReply
  const down = new Set<string>()

  const reply = (answer: ScriptedReply): Effect.Effect<DeliveryResult> => {
    switch (answer._tag) {
      case "Respond": {
        const truncated = answer.body.length > maxLength
        return Effect.succeed(Either.right({
          status: answer.status,
          body: truncated ? answer.body.slice(0, maxLength) : answer.body,
          truncated,
          location: answer.location ?? null
        }))
      }
      case "Fail":
        return Effect.succeed(Either.left(new DeliveryFailed({ kind: answer.kind, message: answer.message })))
      case "Hang":
        return Effect.never
      case "Slow":
        return Effect.zipRight(Effect.sleep(answer.after), reply(answer.reply))
    }
  }

  const post = (request: DeliveryRequest): Effect.Effect<DeliveryResult> =>
    Effect.gen(function*() {
      const target = request.targets.find((t) => !down.has(t.address))
      if (target === undefined) {
        const last = request.targets[request.targets.length - 1]
        const message = last === undefined
          ? "no address to connect to"
          : `could not connect to ${last.host} (${last.address}:${last.port}): ECONNREFUSED`
        return Either.left(new DeliveryFailed({ kind: "connect", message }))
      }
      received.push({ ...request, target, at: new Date(yield* Clock.currentTimeMillis) })
      return yield* reply(byUrl.get(request.url) ?? fallback)
    })

  const transport = DeliveryTransport.of({
    postEach: (requests, settled) =>
      Effect.forEach(
        requests,
        (request, index) => Effect.flatMap(post(request), (result) => Effect.sync(() => settled(index, result))),
        { concurrency: "unbounded", discard: true }
      )
  })

  const control: TestDeliveryTransport["Type"] = {
    answer: (answer, url) => {
      if (url === undefined) fallback = answer
      else byUrl.set(url, answer)
    },
    unreachable: (address) => void down.add(address),
    received: () => [...received],
    receivedAt: (url) => received.filter((r) => r.url === url)
  }
  return { control, transport }
}
