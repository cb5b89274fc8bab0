import type { EventId } from "../deposits/Deposit.js"
import type { Network } from "../kernel/Network.js"
import type { DeliveryStatus, EventType } from "./EventTypes.js"

/** One notification event as the operations read it: its delivery state and the stored payload. */
export interface NotificationEvent {
  readonly id: EventId
  readonly network: Network
  readonly eventType: EventType
  readonly status: DeliveryStatus
  /** Attempts started in the current round (0 to 20), not cumulative. */
  readonly attempts: number
  readonly currentRound: number
  /** Null once the current round has ended. */
  readonly nextAttempt: Date | null
  readonly deadlineAt: Date
  readonly lastError: string
  /** The event's creation; a re-push never resets it. */
  readonly createdAt: Date
  readonly deliveredAt: Date | null
  /** The exact JSON text every delivery encrypts; never re-serialised on the way in. */
  readonly payload: string
}

/** Which events a list shows; absent filters match everything. */
export interface NotificationQuery {
  readonly page: number
  readonly pageSize: number
  readonly eventType?: EventType
  readonly status?: DeliveryStatus
}
