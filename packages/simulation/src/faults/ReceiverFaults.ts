import { Clock, Effect } from "effect"
import type { Dice } from "../Dice.js"
import type { ReceiverAnswer } from "../Receiver.js"
import type { Trace } from "../Trace.js"
import { faultRates } from "./FaultRates.js"

interface Outage {
  readonly answer: Exclude<ReceiverAnswer, "ack">
  readonly until: number
}

/**
 * The tenants' receivers failing: one tenant's app down for a while (every request to it
 * answered the same bad way until the outage ends), and single requests answered badly now and
 * then. Outages are drawn once per tick from `ticks` and requests from `requests`, so the number
 * of webhook requests in a run never shifts when the outages come.
 */
export class ReceiverFaults {
  /** Apps in the order their first request came, the ones an outage can hit. */
  private readonly apps: Array<string> = []
  private readonly outages = new Map<string, Outage>()
  private healed = false

  constructor(private readonly ticks: Dice, private readonly requests: Dice, private readonly trace: Trace) {}

  readonly answer = (request: { readonly appId: string; readonly eventId: string }): Effect.Effect<ReceiverAnswer> =>
    Effect.map(Clock.currentTimeMillis, (now) => {
      if (this.healed) return "ack"
      if (!this.apps.includes(request.appId)) this.apps.push(request.appId)
      const outage = this.outages.get(request.appId)
      if (outage !== undefined && outage.until > now) return outage.answer
      const roll = this.requests.int(1, 10_000) / 10_000
      const { receiverRefused, receiverServerError, receiverTimeout } = faultRates
      const answer: ReceiverAnswer = roll <= receiverServerError
        ? "serverError"
        : roll <= receiverServerError + receiverTimeout
        ? "timeout"
        : roll <= receiverServerError + receiverTimeout + receiverRefused
        ? "refused"
        : "ack"
      if (answer !== "ack") this.trace.record(`fault receiver ${answer} ${request.appId} ${request.eventId}`)
      return answer
    })

  readonly step = Effect.gen(this, function*() {
    if (this.apps.length === 0 || !this.ticks.chance(faultRates.receiverOutage)) return
    const now = yield* Clock.currentTimeMillis
    const app = this.ticks.pick(this.apps)
    const answer = this.ticks.pick(["serverError", "timeout", "refused"] as const)
    const millis = this.ticks.int(30, 600) * 1_000
    this.outages.set(app, { answer, until: now + millis })
    this.trace.record(`fault receiver outage ${app} ${answer} ${millis}`)
  })

  readonly heal = Effect.sync(() => {
    this.healed = true
    this.outages.clear()
  })
}
