// The tenant's own books, in memory for the demo: balances per customer (custom_id) in USDT base
// units, as BigInt (amounts arrive as strings; never as JS numbers).
export const makeLedger = () => {
  const balances = new Map()
  const sweeps = []
  return {
    bookDeposit: (deposit) => {
      const change = deposit.status === "confirmed" ? BigInt(deposit.amount) : -BigInt(deposit.amount)
      balances.set(deposit.custom_id, (balances.get(deposit.custom_id) ?? 0n) + change)
    },
    bookSweep: (sweep) => void sweeps.push(sweep),
    balanceOf: (customId) => balances.get(customId) ?? 0n,
    sweeps
  }
}
