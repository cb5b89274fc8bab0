import { Context, type Effect } from "effect"
import type { WebhookUrlRejected } from "./WebhookUrlRejected.js"

/** One address a webhook may be delivered to, checked when it was resolved. */
export interface ResolvedTarget {
  /** The URL's host, for SNI, certificate checks and the Host header (IPv6 without brackets). */
  readonly host: string
  /** The checked IP address; the delivery connects here and never resolves `host` again. */
  readonly address: string
  readonly family: 4 | 6
  /** 443; another port only where the operator allowed private targets. */
  readonly port: number
}

/**
 * Port: turns a webhook URL into the addresses it may be delivered to, enforcing the URL
 * rules (syntax, then every A/AAAA answer public unicast, port 443; an adapter may let the
 * operator lift the last two, as `WEBHOOK_ALLOW_PRIVATE_TARGETS` does). Used when the URL is
 * saved and again when attempts start (once per URL for the attempts a dispatcher claims
 * together), because DNS answers change. Succeeds only with a non-empty list.
 */
export class WebhookTargets extends Context.Tag("@collector/core/WebhookTargets")<
  WebhookTargets,
  {
    readonly resolvePublic: (url: string) => Effect.Effect<ReadonlyArray<ResolvedTarget>, WebhookUrlRejected>
  }
>() {}
