/**
 * Work in flight outside the run's fibers, such as a database's replies. The run's time stands
 * still until it is done: a reply that comes back later in real time must not find the clock
 * moved on, or the run would depend on the machine's speed.
 */
export interface PendingWork {
  /** Resolves once nothing is in flight: true if it had to wait (the replies may have started more work). */
  readonly drain: () => Promise<boolean>
}
