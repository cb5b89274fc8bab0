import { isIP } from "node:net"
import type { Lookup, LookupAddress } from "./Lookup.js"

/** Host name to its addresses, like a hosts file; a name with no entry does not exist. */
export type HostTable = Readonly<Record<string, string | ReadonlyArray<string>>>

/** Names compare as DNS does: case-insensitive, and `example.test.` is `example.test`. */
const normalise = (hostname: string) => hostname.toLowerCase().replace(/\.$/, "")

const notFound = (hostname: string) =>
  Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), {
    code: "ENOTFOUND",
    syscall: "getaddrinfo",
    hostname
  })

/**
 * A resolver over a fixed table, for tests and for deployments that pin names. It fails the
 * way the system resolver does (`ENOTFOUND`), so callers exercise their real error path.
 */
export const make = (table: HostTable): Lookup => {
  const entries = new Map<string, ReadonlyArray<LookupAddress>>()
  for (const [name, value] of Object.entries(table)) {
    const addresses = typeof value === "string" ? [value] : value
    entries.set(normalise(name), addresses.map((address) => ({ address, family: isIP(address) })))
  }
  return async (hostname) => {
    const addresses = entries.get(normalise(hostname))
    if (addresses === undefined || addresses.length === 0) throw notFound(hostname)
    return addresses
  }
}
