import { promises as dns } from "node:dns"

/** One A or AAAA answer. */
export interface LookupAddress {
  readonly address: string
  readonly family: number
}

/**
 * Resolves a host name to all of its addresses; rejects with a Node-style error (`code`
 * such as `ENOTFOUND`) when there are none. The seam that lets tests swap the system
 * resolver for a fixed table.
 */
export type Lookup = (hostname: string) => Promise<ReadonlyArray<LookupAddress>>

/**
 * The system resolver (getaddrinfo): the same answers, /etc/hosts entries and search rules
 * every other client on this host sees, which matters most for private deployments.
 * `all` because every answer must be checked, `verbatim` so the order is the resolver's own.
 */
export const systemLookup: Lookup = (hostname) => dns.lookup(hostname, { all: true, verbatim: true })
