import { openEnvelope, WebhookEnvelope } from "@collector/api"
import { Notifications } from "@collector/core"
import { Clock, Duration, Effect, Either, Schema } from "effect"

/** How the receiver answers one request. */
export type ReceiverAnswer = "ack" | "serverError" | "timeout" | "refused"

/** One request the receiver read, opened with its tenant's webhook key. */
export interface ReceivedWebhook {
  readonly appId: string
  /** The URL the request was sent to. */
  readonly url: string
  readonly eventId: string
  readonly eventType: string
  /** The decrypted payload; null when the envelope did not open (a wrong key, a broken envelope). */
  readonly payload: string | null
  readonly at: number
  readonly answer: ReceiverAnswer
}

const decodeEnvelope = Schema.decodeUnknownEither(Schema.parseJson(WebhookEnvelope))

/**
 * The tenants' webhook receivers, in process: every POST is opened with the webhook key of the
 * app it names (registered when the tenant was created, as a tenant keeps it) and answered as
 * `answerFor` decides (the run's receiver faults): the contract's acknowledgement, a 500, no
 * answer within the response window, or a refused connection. Everything received is kept for
 * the invariants.
 */
export class Receiver {
  private readonly keys = new Map<string, Uint8Array>()
  readonly received: Array<ReceivedWebhook> = []

  constructor(private readonly answerFor: (request: { readonly appId: string; readonly eventId: string }) => Effect.Effect<ReceiverAnswer>) {}

  /** The webhook key of an app, as the operator handed it to the tenant (base64 of 32 bytes). */
  registerKey(appId: string, base64Key: string): void {
    this.keys.set(appId, new Uint8Array(Buffer.from(base64Key, "base64")))
  }

  private open(appId: string, body: string): string | null {
    const key = this.keys.get(appId)
    const envelope = decodeEnvelope(body)
    if (key === undefined || Either.isLeft(envelope)) return null
    return Either.getOrNull(openEnvelope(key, envelope.right))
  }

  private post(request: Notifications.DeliveryRequest): Effect.Effect<Notifications.DeliveryResult> {
    return Effect.gen(this, function*() {
      const appId = request.headers["X-App-Id"] ?? ""
      const eventId = request.headers["X-Event-Id"] ?? ""
      const answer = yield* this.answerFor({ appId, eventId })
      if (answer === "refused") {
        return Either.left(new Notifications.DeliveryFailed({ kind: "connect", message: "could not connect: ECONNREFUSED (simulated)" }))
      }
      this.received.push({
        appId,
        url: request.url,
        eventId,
        eventType: request.headers["X-Event-Type"] ?? "",
        payload: this.open(appId, request.body),
        at: yield* Clock.currentTimeMillis,
        answer
      })
      if (answer === "timeout") {
        // The response window of the real transport (10 s) closes with nothing read.
        yield* Effect.sleep(Duration.seconds(10))
        return Either.left(new Notifications.DeliveryFailed({ kind: "timeout", message: "no response within 10 s (simulated)" }))
      }
      return Either.right(
        answer === "ack"
          ? { status: 200, body: '{"code":0,"message":"ok"}', truncated: false, location: null }
          : { status: 500, body: '{"code":1,"message":"simulated failure"}', truncated: false, location: null }
      )
    })
  }

  readonly transport: Notifications.DeliveryTransport["Type"] = Notifications.DeliveryTransport.of({
    postEach: (requests, settled) =>
      Effect.forEach(
        requests,
        (request, index) => Effect.flatMap(this.post(request), (result) => Effect.sync(() => settled(index, result))),
        { concurrency: "unbounded", discard: true }
      )
  })
}
