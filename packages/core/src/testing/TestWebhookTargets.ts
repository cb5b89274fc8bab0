import { Context, Duration, Effect, Either, Layer } from "effect"
import { parseWebhookUrl } from "../webhook/WebhookUrl.js"
import { WebhookUrlRejected } from "../webhook/WebhookUrlRejected.js"
import { type ResolvedTarget, WebhookTargets } from "../webhook/WebhookTargets.js"

/** A name server that never answers: the lookup times out. */
export const SilentHost = { _tag: "SilentHost" } as const

/** Host name to its addresses, like a hosts file; a name with no entry does not exist. */
export type HostTable = Readonly<Record<string, string | ReadonlyArray<string> | typeof SilentHost>>

/** As the DNS adapter's default. */
const lookupTimeout = Duration.seconds(5)

const rejected = (reason: string) => new WebhookUrlRejected({ reason })

/** Names compare as DNS does: case-insensitive, and `example.test.` is `example.test`. */
const normalise = (host: string) => host.toLowerCase().replace(/\.$/, "")

/**
 * WebhookTargets over a host table that a test can change between attempts: the URL rules are
 * checked as in production (`parseWebhookUrl`, any port allowed as for private deployments),
 * IP literals are taken as they are, names are looked up in the table. Whether an address is
 * public is not judged: every address in the table counts as checked.
 */
export class TestWebhookTargets extends Context.Tag("@collector/core/testing/TestWebhookTargets")<
  TestWebhookTargets,
  {
    /** The table lookups read from now on. */
    readonly set: (table: HostTable) => void
    /** Names looked up so far. */
    readonly lookups: () => number
  }
>() {
  static layer(table: HostTable): Layer.Layer<TestWebhookTargets | WebhookTargets> {
    return Layer.effectContext(Effect.sync(() => {
      const { control, targets } = make(table)
      return Context.make(TestWebhookTargets, control).pipe(Context.add(WebhookTargets, targets))
    }))
  }
}

const make = (initial: HostTable) => {
  let table = new Map(Object.entries(initial).map(([name, entry]) => [normalise(name), entry]))
  let lookups = 0

  const lookUp = (host: string): Effect.Effect<ReadonlyArray<string>, WebhookUrlRejected> =>
    Effect.suspend(() => {
      lookups++
      const entry = table.get(normalise(host))
      if (entry === undefined) return Effect.fail(rejected(`webhook URL host ${host} could not be resolved (ENOTFOUND)`))
      if (typeof entry === "object" && "_tag" in entry) {
        return Effect.zipRight(
          Effect.sleep(lookupTimeout),
          Effect.fail(rejected(`webhook URL host ${host} could not be resolved within ${Duration.format(lookupTimeout)}`))
        )
      }
      return Effect.succeed(typeof entry === "string" ? [entry] : entry)
    })

  const targets = WebhookTargets.of({
    resolvePublic: (text) =>
      Effect.gen(function*() {
        const url = yield* Either.match(parseWebhookUrl(text, { allowAnyPort: true }), { onLeft: Effect.fail, onRight: Effect.succeed })
        const addresses = url.hostKind === "domain" ? yield* lookUp(url.host) : [url.host]
        const resolved: Array<ResolvedTarget> = [...new Set(addresses)].map((address) => ({
          host: url.host,
          address,
          family: address.includes(":") ? 6 : 4,
          port: url.port
        }))
        if (resolved.length === 0) return yield* rejected(`webhook URL host ${url.host} has no addresses`)
        return resolved
      })
  })

  const control: TestWebhookTargets["Type"] = {
    set: (next) => void (table = new Map(Object.entries(next).map(([name, entry]) => [normalise(name), entry]))),
    lookups: () => lookups
  }
  return { control, targets }
}
