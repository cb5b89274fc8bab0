/**
 * The loops of an engine by the name they go by in logs, on the heartbeat board and in readiness
 * (`DatabaseWaits`): one place, so a loop and the engine running it never name it differently.
 */
export const engineComponents = {
  scanner: "scanner",
  balanceSync: "balance_sync",
  sweeper: "sweeper",
  reclaim: "reclaim",
  automation: "automation",
  notifier: "notifier",
  feeBooking: "fee_booking"
} as const
