export type EventType = "deposit.confirmed" | "deposit.reverted" | "sweep.succeeded" | "sweep.failed" | "sweep.cancelled"

export const eventTypes: ReadonlyArray<EventType> = [
  "deposit.confirmed",
  "deposit.reverted",
  "sweep.succeeded",
  "sweep.failed",
  "sweep.cancelled"
]

/** Delivery status of an event; never the business outcome. */
export type DeliveryStatus = "pending" | "delivering" | "delivered" | "failed"
