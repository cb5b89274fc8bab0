/** The chain's energy estimate plus a 10% margin, rounded up: what a sweep prepares for. */
export const withMargin = (estimate: bigint): bigint => (estimate * 110n + 99n) / 100n
