/**
 * The one energy rental order of a sweep task. `ordering` is written before the provider is
 * called, so a crash or an unanswered call leaves the order number to verify; nothing is ever
 * ordered twice under another number.
 */
export type RentalState = "ordering" | "unknown" | "pending" | "delivered" | "under_delivered" | "expired" | "failed"

export interface EnergyRental {
  /** Our own order number, sent to the provider and kept for verification. */
  readonly orderId: string
  readonly provider: string
  /** The provider's own reference, once known. */
  readonly providerOrderId: string | null
  /** Energy ordered. */
  readonly quantity: bigint
  /** SUN, from the quote. */
  readonly estimatedCost: bigint
  /** SUN actually charged for energy; 0 until known. */
  readonly paidCost: bigint
  /** SUN charged for activating the wallet; 0 when none. */
  readonly activationCost: bigint
  readonly state: RentalState
  readonly expiresAt: Date | null
}
