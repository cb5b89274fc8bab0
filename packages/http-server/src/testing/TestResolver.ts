import { HostTableLookup } from "@collector/outbound"

/** Names the test servers resolve, in place of the (unreachable) public DNS. */
export const testResolver = HostTableLookup.make({
  "hooks.example.com": "93.184.216.34",
  "v6.example.com": "2606:2800:220:1:248:1893:25c8:1946",
  "internal.example.com": "10.0.0.7",
  "mixed.example.com": ["93.184.216.34", "192.168.1.20"],
  "loopback.example.com": "127.0.0.1"
})
