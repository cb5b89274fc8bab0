import ipaddr from "ipaddr.js"

/**
 * The well-known NAT64 prefix 64:ff9b::/96 (RFC 6052). DNS64 resolvers synthesise these for
 * IPv4-only names on IPv6-only networks, and the translator forwards to the embedded IPv4
 * address, so the embedded address decides. ipaddr.js folds this together with the
 * local-use prefix 64:ff9b:1::/48 (RFC 8215) under "rfc6052"; that one is operator-defined
 * with no fixed embedding position, so it is not trusted.
 */
const nat64WellKnown = ipaddr.IPv6.parseCIDR("64:ff9b::/96")

/**
 * Global unicast space (RFC 4291 / IANA). ipaddr.js calls every address it has no special
 * name for "unicast", including unallocated space such as 4000::/3 and the deprecated
 * IPv4-compatible ::a.b.c.d form, so IPv6 must also fall inside 2000::/3.
 */
const globalUnicast = ipaddr.IPv6.parseCIDR("2000::/3")

/**
 * IPv4 is public only when ipaddr.js names it "unicast". Everything else is rejected:
 * unspecified (0/8), private, loopback, link-local, CGNAT, multicast, broadcast, and the
 * "reserved" list (192.0.0/24, documentation ranges, benchmarking 198.18/15, 240/4). The
 * anycast service ranges it names (AS112, AMT relays) are rejected too: nobody runs a
 * webhook receiver there, and failing closed is the safer error.
 */
const isPublicV4 = (address: ipaddr.IPv4) => address.range() === "unicast"

/**
 * IPv6 forms that carry an IPv4 address are judged by that address: IPv4-mapped
 * (::ffff:a.b.c.d, what a dual-stack socket connects to) and NAT64 64:ff9b::/96. The
 * tunnel forms 6to4 (2002::/16) and Teredo (2001::/32) are rejected outright, whatever they
 * embed: both are deprecated, IANA does not list them as globally reachable, and traffic to
 * them goes through relays to an address we would have to decode (Teredo obfuscates it).
 * The deprecated IPv4-compatible form ::a.b.c.d and IPv4-translated ::ffff:0:a.b.c.d
 * (RFC 6145) are rejected: they lie outside 2000::/3 and no socket should connect to them.
 * Everything else must be in 2000::/3 and carry no special-purpose name (unique-local,
 * link-local, site-local, multicast, discard 100::/64, documentation 2001:db8::/32 and
 * 3fff::/20, benchmarking, ORCHID, AMT, AS112, segment routing, ...).
 */
const isPublicV6 = (address: ipaddr.IPv6): boolean => {
  if (address.isIPv4MappedAddress()) return isPublicV4(address.toIPv4Address())
  if (address.match(nat64WellKnown)) return isPublicV4(new ipaddr.IPv4(address.toByteArray().slice(12)))
  return address.match(globalUnicast) && address.range() === "unicast"
}

/**
 * IPv6 text in the WHATWG canonical form (RFC 5952 hex groups), or undefined when it is not
 * a plain IPv6 address. Needed because ipaddr.js reads the deprecated IPv4-compatible text
 * `::a.b.c.d` as if it were IPv4-mapped `::ffff:a.b.c.d`; the canonical form has no dotted
 * quad, so what ipaddr.js sees is the address the socket would use. Zone indexes (`%eth0`)
 * are refused by the URL parser, which suits us: they only make sense for link-local.
 */
const canonicalV6 = (address: string): string | undefined => {
  // Validated first so that the text cannot smuggle URL syntax into the probe below.
  if (!ipaddr.IPv6.isValid(address) || address.includes("%")) return undefined
  try {
    return new URL(`http://[${address}]/`).hostname.slice(1, -1)
  } catch {
    return undefined
  }
}

/**
 * True only for an address a public webhook may be delivered to. Accepts plain address
 * text only: dotted-quad IPv4 without leading zeros, or IPv6. Anything else (the shorthand,
 * octal and hex IPv4 forms that some parsers accept and others read differently, brackets,
 * zone indexes) is false.
 */
export const isPublicUnicast = (address: string): boolean => {
  if (ipaddr.IPv4.isValidFourPartDecimal(address)) return isPublicV4(ipaddr.IPv4.parse(address))
  const v6 = canonicalV6(address)
  return v6 !== undefined && isPublicV6(ipaddr.IPv6.parse(v6))
}
