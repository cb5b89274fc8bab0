import { Webhook } from "@collector/core"
import { DnsWebhookTargets, type Lookup } from "@collector/outbound"
import { Layer } from "effect"

/**
 * Where every webhook host name points in a kit: a public unicast address (so the production
 * rule that a target must be public lets it through) that nothing ever connects to, since the
 * deliveries are taken in memory and never leave the process.
 */
export const defaultReceiverAddress = "203.0.114.10"

/** A resolver that answers every name with `address`, as a hosts file naming the tenant's receiver would. */
export const lookup = (address: string): Lookup => () => Promise.resolve([{ address, family: address.includes(":") ? 6 : 4 }])

/**
 * Webhook URLs checked by the production adapter under production rules (https, port 443, no
 * credentials or fragment, public addresses only), with names resolved by `lookup` instead of
 * DNS: a tenant's test sets the URL it would set in production.
 */
export const make = (address: string = defaultReceiverAddress): Webhook.WebhookTargets["Type"] =>
  DnsWebhookTargets.make({ allowPrivateTargets: false, lookup: lookup(address) })

export const layer = (address: string = defaultReceiverAddress): Layer.Layer<Webhook.WebhookTargets> => Layer.succeed(Webhook.WebhookTargets, make(address))
