export * as DnsWebhookTargets from "./DnsWebhookTargets"
export * as HostTableLookup from "./HostTableLookup"
export * from "./Lookup"
export * from "./PublicAddress"
