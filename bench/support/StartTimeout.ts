/**
 * How long a benchmark waits for a server it started (our API, a reference, the simulated node)
 * to answer. Five minutes, not the tests' one: on the shared two-core machine under other helpers'
 * test suites (load average 20 and more), loading our API through tsx alone took over a minute,
 * and a quick run lost its whole list section to the shorter wait.
 */
export const startTimeoutMs = 300_000
