/**
 * Why a transfer to a tenant wallet is not a deposit because of its value. A 0-value `Transfer`
 * log moves nothing: anyone can emit one from any `from` (the USDT contract allows it), which is
 * how address-poisoning campaigns plant look-alike senders in a wallet's history; dust under a
 * minimum is the paid version of the same. Neither is stored, booked or announced.
 */
export type IgnoredTransfer = "zero" | "below_minimum"

/**
 * The rule: nothing of value 0 is a deposit; above that, the tenant's own minimum on the network
 * when it set one, otherwise the network's (`networkMinimum`, 0 when the operator set none).
 */
export const ignoredTransfer = (
  value: bigint,
  tenantMinimum: bigint | null,
  networkMinimum: bigint
): IgnoredTransfer | undefined => {
  if (value === 0n) return "zero"
  return value < (tenantMinimum ?? networkMinimum) ? "below_minimum" : undefined
}
