import * as RowRule from "../kernel/RowRule.js"

/**
 * Who may take a network's scan lease, written once: the memory driver evaluates the rule, the
 * PostgreSQL driver renders it into its claim statement (timed there by the database's clock).
 */

/** The lease fields of a network's scan cursor; a released lease has no holder and no end. */
export interface ScanLeaseFields {
  readonly leaseHolder: string
  readonly leaseExpiresAt: Date | null
}

export interface LeaseRequest {
  readonly holder: string
  readonly now: Date
}

const leaseField = RowRule.field<ScanLeaseFields>

/** The holder renews its own lease; any scanner takes one that has run out by `now`, or none held. */
export const scanLeaseTakable: RowRule.Rule<ScanLeaseFields, LeaseRequest> = RowRule.any<ScanLeaseFields, LeaseRequest>(
  RowRule.compare(leaseField("leaseHolder"), "=", RowRule.param<LeaseRequest>("holder")),
  RowRule.isNull(leaseField("leaseExpiresAt")),
  RowRule.compare(leaseField("leaseExpiresAt"), "<", RowRule.param<LeaseRequest>("now"))
)
