/**
 * The contract's receiver rule 2: for one deposit `id`, only a revision above the highest
 * one already booked is applied; an equal or older one is acknowledged as received but not
 * booked. Webhook events and query results (deposit list and detail) follow the same rule.
 */
export type RevisionDecision = "apply" | "acknowledge"

export const revisionDecision = (highestBooked: number | undefined, revision: number): RevisionDecision =>
  highestBooked === undefined || revision > highestBooked ? "apply" : "acknowledge"
