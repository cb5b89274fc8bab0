import { describe, expect, it } from "@effect/vitest"
import { isPublicUnicast } from "./PublicAddress.js"

describe("isPublicUnicast", () => {
  it.each([
    "8.8.8.8",
    "93.184.216.34",
    "1.1.1.1",
    // Just outside the non-public ranges around them.
    "9.255.255.255",
    "11.0.0.0",
    "172.15.255.255",
    "172.32.0.0",
    "192.167.255.255",
    "192.169.0.0",
    "100.63.255.255",
    "100.128.0.0",
    "169.253.255.255",
    "198.17.255.255",
    "198.20.0.0",
    "223.255.255.255",
    "2606:2800:220:1:248:1893:25c8:1946",
    "2001:4860:4860::8888",
    "2a00:1450:4001:80e::200e",
    // IPv4-mapped and NAT64 forms are judged by the IPv4 address they carry.
    "::ffff:8.8.8.8",
    "::ffff:808:808",
    "64:ff9b::808:808",
    "64:ff9b::8.8.8.8"
  ])("%s is public", (address) => {
    expect(isPublicUnicast(address)).toBe(true)
  })

  it.each([
    ["0.0.0.0", "unspecified"],
    ["0.1.2.3", "this network 0/8"],
    ["10.0.0.1", "private"],
    ["10.255.255.255", "private"],
    ["172.16.0.1", "private"],
    ["172.31.255.255", "private"],
    ["192.168.1.1", "private"],
    ["127.0.0.1", "loopback"],
    ["127.255.255.254", "loopback"],
    ["169.254.169.254", "link-local (cloud metadata)"],
    ["100.64.0.1", "CGNAT"],
    ["100.127.255.255", "CGNAT"],
    ["224.0.0.1", "multicast"],
    ["239.255.255.250", "multicast"],
    ["255.255.255.255", "broadcast"],
    ["240.0.0.1", "reserved 240/4"],
    ["192.0.0.1", "IETF protocol assignments"],
    ["192.0.2.1", "documentation TEST-NET-1"],
    ["198.51.100.1", "documentation TEST-NET-2"],
    ["203.0.113.1", "documentation TEST-NET-3"],
    ["198.18.0.1", "benchmarking"],
    ["198.19.255.255", "benchmarking"],
    ["192.175.48.1", "AS112 anycast sink"],
    ["::", "unspecified"],
    ["::1", "loopback"],
    ["fc00::1", "unique-local"],
    ["fd12:3456:789a::1", "unique-local"],
    ["fe80::1", "link-local"],
    ["febf:ffff::1", "link-local"],
    ["fec0::1", "site-local"],
    ["ff02::1", "multicast"],
    ["ff0e::1", "global multicast"],
    ["100::1", "discard-only"],
    ["2001:db8::1", "documentation"],
    ["3fff::1", "documentation (RFC 9637)"],
    ["2001:2::1", "benchmarking"],
    ["4000::1", "unallocated, outside 2000::/3"],
    ["::ffff:127.0.0.1", "IPv4-mapped loopback"],
    ["::ffff:7f00:1", "IPv4-mapped loopback, hex"],
    ["::ffff:10.0.0.1", "IPv4-mapped private"],
    ["::ffff:c0a8:1", "IPv4-mapped private, hex"],
    ["::ffff:169.254.169.254", "IPv4-mapped link-local"],
    ["::ffff:0.0.0.0", "IPv4-mapped unspecified"],
    ["64:ff9b::10.0.0.1", "NAT64 of private"],
    ["64:ff9b::7f00:1", "NAT64 of loopback"],
    ["64:ff9b:1::808:808", "local-use NAT64 prefix, not trusted"],
    // ipaddr.js alone would read this text as IPv4-mapped 8.8.8.8.
    ["::8.8.8.8", "deprecated IPv4-compatible"],
    ["::127.0.0.1", "deprecated IPv4-compatible"],
    ["::808:808", "deprecated IPv4-compatible, hex"],
    ["::ffff:0:808:808", "IPv4-translated (RFC 6145)"],
    ["2001::1", "Teredo"],
    ["2001:0:4136:e378:8000:63bf:3fff:fdd2", "Teredo"],
    ["2002:c0a8:101::1", "6to4 of private"],
    ["2002:808:808::1", "6to4 of public: tunnels are rejected outright"]
  ])("%s is not public (%s)", (address) => {
    expect(isPublicUnicast(address)).toBe(false)
  })

  it.each([
    ["", "empty"],
    ["example.com", "a name"],
    ["010.0.0.1", "leading zero: octal to some parsers"],
    ["127.1", "shorthand"],
    ["0x7f.0.0.1", "hex"],
    ["2130706433", "a single number"],
    ["1.2.3.256", "octet out of range"],
    [" 8.8.8.8", "surrounding space"],
    ["[2001:4860:4860::8888]", "brackets"],
    ["2001:4860:4860::8888%eth0", "zone index"],
    ["fe80::1%eth0", "zone index"],
    ["1::2::3", "malformed IPv6"]
  ])("%j is not a plain address (%s)", (address) => {
    expect(isPublicUnicast(address)).toBe(false)
  })
})
