import { Webhook } from "@collector/core"
import { describe, expect, it } from "@effect/vitest"
import { ConfigProvider, Effect, Either, Fiber, TestClock } from "effect"
import * as DnsWebhookTargets from "./DnsWebhookTargets.js"
import * as HostTableLookup from "./HostTableLookup.js"

const lookup = HostTableLookup.make({
  "example.test": "93.184.216.34",
  "rebind.test": ["93.184.216.34", "10.0.0.1"],
  "v6.test": "2606:2800:220:1:248:1893:25c8:1946",
  "dual.test": ["93.184.216.34", "2606:2800:220:1:248:1893:25c8:1946"],
  "twice.test": ["93.184.216.34", "93.184.216.34"],
  "mapped.test": "::ffff:127.0.0.1",
  "metadata.test": "169.254.169.254",
  "private.test": "10.0.0.1",
  "xn--bcher-kva.test": "93.184.216.34",
  "garbage.test": "not-an-address"
})

const { privateTargetsHint } = DnsWebhookTargets
const publicTargets = DnsWebhookTargets.make({ lookup })
const privateTargets = DnsWebhookTargets.make({ lookup, allowPrivateTargets: true })

const resolve = (targets: Webhook.WebhookTargets["Type"], url: string) =>
  Effect.runPromise(Effect.either(targets.resolvePublic(url)))

const rejection = async (targets: Webhook.WebhookTargets["Type"], url: string) => {
  const result = await resolve(targets, url)
  if (Either.isRight(result)) throw new Error(`expected ${url} to be rejected, got ${JSON.stringify(result.right)}`)
  expect(result.left).toBeInstanceOf(Webhook.WebhookUrlRejected)
  expect(result.left.message).toBe(result.left.reason)
  return result.left.reason
}

const accepted = async (targets: Webhook.WebhookTargets["Type"], url: string) => {
  const result = await resolve(targets, url)
  if (Either.isLeft(result)) throw new Error(`expected ${url} to pass: ${result.left.reason}`)
  return result.right
}

const v4 = (host: string, address = host) => ({ host, address, family: 4, port: 443 })

describe("DnsWebhookTargets accepts", () => {
  it.each([
    ["https://8.8.8.8/hook", [v4("8.8.8.8")]],
    ["https://example.test/hook", [v4("example.test", "93.184.216.34")]],
    ["https://example.test:443/hook", [v4("example.test", "93.184.216.34")]],
    ["HTTPS://EXAMPLE.test/hook", [v4("example.test", "93.184.216.34")]],
    // Resolved as an absolute name; the host stays as written for the Host header.
    ["https://example.test./hook", [v4("example.test.", "93.184.216.34")]],
    // The resolver sees punycode.
    ["https://bücher.test/", [v4("xn--bcher-kva.test", "93.184.216.34")]],
    ["https://v6.test/", [{ host: "v6.test", address: "2606:2800:220:1:248:1893:25c8:1946", family: 6, port: 443 }]],
    [
      "https://dual.test/",
      [v4("dual.test", "93.184.216.34"), { host: "dual.test", address: "2606:2800:220:1:248:1893:25c8:1946", family: 6, port: 443 }]
    ],
    ["https://twice.test/", [v4("twice.test", "93.184.216.34")]],
    [
      "https://[2606:2800:220:1:248:1893:25c8:1946]/",
      [{ host: "2606:2800:220:1:248:1893:25c8:1946", address: "2606:2800:220:1:248:1893:25c8:1946", family: 6, port: 443 }]
    ]
  ])("%s", async (url, expected) => {
    expect(await accepted(publicTargets, url)).toEqual(expected)
  })
})

describe("DnsWebhookTargets rejects", () => {
  it.each([
    ["", "webhook URL is required"],
    ["http://example.test/", "webhook URL must use https"],
    ["ftp://example.test/", "webhook URL must use https"],
    ["https://example.test:80/", `webhook URL must use port 443 ${privateTargetsHint}`],
    ["https://example.test:8443/", `webhook URL must use port 443 ${privateTargetsHint}`],
    ["https://user:pass@example.test/", "webhook URL must not contain user credentials"],
    ["https://example.test/#frag", "webhook URL must not contain a fragment"],
    ["https://example.test/#", "webhook URL must not contain a fragment"],
    [`https://example.test/${"a".repeat(2049 - "https://example.test/".length)}`, "webhook URL must be at most 2048 characters"],
    ["https://127.0.0.1/", `webhook URL host 127.0.0.1 is not a public address ${privateTargetsHint}`],
    ["https://0x7f.1/", `webhook URL host 127.0.0.1 is not a public address ${privateTargetsHint}`],
    ["https://[::1]/", `webhook URL host ::1 is not a public address ${privateTargetsHint}`],
    ["https://10.1.2.3/", `webhook URL host 10.1.2.3 is not a public address ${privateTargetsHint}`],
    ["https://169.254.169.254/", `webhook URL host 169.254.169.254 is not a public address ${privateTargetsHint}`],
    ["https://100.64.0.1/", `webhook URL host 100.64.0.1 is not a public address ${privateTargetsHint}`],
    ["https://[::ffff:192.168.0.1]/", `webhook URL host ::ffff:c0a8:1 is not a public address ${privateTargetsHint}`],
    ["https://0.0.0.0/", `webhook URL host 0.0.0.0 is not a public address ${privateTargetsHint}`],
    ["https://224.0.0.1/", `webhook URL host 224.0.0.1 is not a public address ${privateTargetsHint}`],
    ["https://[fd00::1]/", `webhook URL host fd00::1 is not a public address ${privateTargetsHint}`],
    // One private answer among public ones is the DNS-rebinding setup: reject the whole URL.
    ["https://rebind.test/", `webhook URL host rebind.test does not resolve to public addresses only ${privateTargetsHint}`],
    ["https://mapped.test/", `webhook URL host mapped.test does not resolve to public addresses only ${privateTargetsHint}`],
    ["https://metadata.test/", `webhook URL host metadata.test does not resolve to public addresses only ${privateTargetsHint}`],
    ["https://none.test/", "webhook URL host none.test could not be resolved (ENOTFOUND)"],
    ["https://garbage.test/", "webhook URL host garbage.test resolves to an invalid address"]
  ])("%j", async (url, expected) => {
    expect(await rejection(publicTargets, url)).toBe(expected)
  })

  it.effect("what the resolver answered stays out of the reason a tenant reads, and goes to the detail for the operator's log", () =>
    Effect.gen(function*() {
      const refused = yield* Effect.flip(publicTargets.resolvePublic("https://rebind.test/hook?token=SECRET"))
      expect(refused.reason).not.toContain("10.0.0.1")
      expect(refused.reason).not.toContain("SECRET")
      expect(refused.detail).toBe("rebind.test resolves to 10.0.0.1")
    }))

  it("checks IP literals without asking the resolver", async () => {
    const noNames = DnsWebhookTargets.make({ lookup: HostTableLookup.make({}) })
    expect(await accepted(noNames, "https://8.8.8.8/")).toEqual([v4("8.8.8.8")])
    expect(await rejection(noNames, "https://example.test/")).toBe(
      "webhook URL host example.test could not be resolved (ENOTFOUND)"
    )
  })

  it.effect("gives up on a lookup that does not answer in time", () =>
    Effect.gen(function*() {
      const hanging = DnsWebhookTargets.make({ lookup: () => new Promise(() => {}) })
      const fiber = yield* Effect.fork(Effect.flip(hanging.resolvePublic("https://example.test/")))
      yield* TestClock.adjust("4999 millis")
      expect(fiber.unsafePoll()).toBeNull()
      yield* TestClock.adjust("1 millis")
      const error = yield* Fiber.join(fiber)
      expect(error.reason).toBe("webhook URL host example.test could not be resolved within 5s")
    }))

  it("uses the system resolver by default", async () => {
    // localhost comes from the hosts file on every system we run on, with no network needed.
    const reason = await rejection(DnsWebhookTargets.make(), "https://localhost/")
    expect(reason).toMatch(/^webhook URL host localhost does not resolve to public addresses only \(an operator can allow/)
  })
})

describe("DnsWebhookTargets with allowPrivateTargets", () => {
  it.each([
    ["https://127.0.0.1/", [v4("127.0.0.1")]],
    ["https://private.test/", [v4("private.test", "10.0.0.1")]],
    ["https://rebind.test/", [v4("rebind.test", "93.184.216.34"), v4("rebind.test", "10.0.0.1")]],
    ["https://[::1]/", [{ host: "::1", address: "::1", family: 6, port: 443 }]],
    // Every other non-public address too, however unlikely a receiver there is.
    ["https://169.254.169.254/", [v4("169.254.169.254")]],
    ["https://0.0.0.0/", [v4("0.0.0.0")]],
    // Receivers of tests and private deployments listen on other ports.
    ["https://127.0.0.1:8443/", [{ host: "127.0.0.1", address: "127.0.0.1", family: 4, port: 8443 }]],
    ["https://private.test:8080/", [{ host: "private.test", address: "10.0.0.1", family: 4, port: 8080 }]],
    // A public target on another port as well: the setting lifts the port rule for every host.
    ["https://example.test:8443/", [{ host: "example.test", address: "93.184.216.34", family: 4, port: 8443 }]]
  ])("lets %s through", async (url, expected) => {
    expect(await accepted(privateTargets, url)).toEqual(expected)
  })

  it.each([
    ["http://127.0.0.1/", "webhook URL must use https"],
    ["https://user:pass@127.0.0.1/", "webhook URL must not contain user credentials"],
    ["https://127.0.0.1:0443/", "webhook URL must use port 443"],
    ["https://127.0.0.1:0/", "webhook URL must use port 443"],
    ["https://127.0.0.1/#", "webhook URL must not contain a fragment"],
    ["https://none.test/", "webhook URL host none.test could not be resolved (ENOTFOUND)"],
    ["https://garbage.test/", "webhook URL host garbage.test resolves to an invalid address"]
  ])("still rejects %j", async (url, expected) => {
    expect(await rejection(privateTargets, url)).toBe(expected)
  })
})

describe("DnsWebhookTargets names WEBHOOK_ALLOW_PRIVATE_TARGETS", () => {
  it("in its hint, in these words", () => {
    expect(privateTargetsHint).toBe("(an operator can allow private targets and other ports with WEBHOOK_ALLOW_PRIVATE_TARGETS=true)")
  })

  // What the setting lifts: each refused without it, with the hint, and accepted with it.
  it.each([
    "https://example.test:8443/",
    "https://127.0.0.1/",
    "https://[::1]/",
    "https://private.test/",
    "https://rebind.test/",
    "https://127.0.0.1:8443/"
  ])("when it refuses %s, which the setting would let through", async (url) => {
    expect(await rejection(publicTargets, url)).toMatch(/ \(an operator can allow private targets and other ports with WEBHOOK_ALLOW_PRIVATE_TARGETS=true\)$/)
    expect((await accepted(privateTargets, url)).length).toBeGreaterThan(0)
  })

  // What it does not lift: the same refusal with and without it, never naming it.
  it.each([
    "http://127.0.0.1/",
    "http://example.test/",
    "https://user@example.test/",
    "https://example.test/#",
    "https://example.test:0443/",
    "https://none.test/"
  ])("never when it refuses %s, which the setting would refuse too", async (url) => {
    const reason = await rejection(publicTargets, url)
    expect(reason).not.toContain("WEBHOOK_ALLOW_PRIVATE_TARGETS")
    expect(await rejection(privateTargets, url)).toBe(reason)
  })
})

describe("DnsWebhookTargets.layerConfig", () => {
  const resolveWith = (env: Record<string, string>, url: string) =>
    Effect.flatMap(Webhook.WebhookTargets, (targets) => targets.resolvePublic(url)).pipe(
      Effect.provide(DnsWebhookTargets.layerConfig()),
      Effect.withConfigProvider(ConfigProvider.fromMap(new Map(Object.entries(env))))
    )

  it.effect("rejects private targets unless WEBHOOK_ALLOW_PRIVATE_TARGETS is true", () =>
    Effect.gen(function*() {
      const unset = yield* Effect.flip(resolveWith({}, "https://127.0.0.1/"))
      expect(unset).toBeInstanceOf(Webhook.WebhookUrlRejected)
      const off = yield* Effect.flip(resolveWith({ WEBHOOK_ALLOW_PRIVATE_TARGETS: "false" }, "https://127.0.0.1/"))
      expect(off).toBeInstanceOf(Webhook.WebhookUrlRejected)
      const on = yield* resolveWith({ WEBHOOK_ALLOW_PRIVATE_TARGETS: "true" }, "https://127.0.0.1/")
      expect(on).toEqual([v4("127.0.0.1")])
      const onOtherPort = yield* resolveWith({ WEBHOOK_ALLOW_PRIVATE_TARGETS: "true" }, "https://127.0.0.1:8443/")
      expect(onOtherPort).toEqual([{ host: "127.0.0.1", address: "127.0.0.1", family: 4, port: 8443 }])
      const offOtherPort = yield* Effect.flip(resolveWith({}, "https://8.8.8.8:8443/"))
      expect(offOtherPort).toEqual(new Webhook.WebhookUrlRejected({ reason: `webhook URL must use port 443 ${privateTargetsHint}` }))
      // Still https only.
      const onHttp = yield* Effect.flip(resolveWith({ WEBHOOK_ALLOW_PRIVATE_TARGETS: "true" }, "http://127.0.0.1:8080/"))
      expect(onHttp).toEqual(new Webhook.WebhookUrlRejected({ reason: "webhook URL must use https" }))
    }))

  it.effect("fails to build on a value that is not a boolean", () =>
    Effect.gen(function*() {
      const error = yield* Effect.flip(resolveWith({ WEBHOOK_ALLOW_PRIVATE_TARGETS: "maybe" }, "https://8.8.8.8/"))
      expect(error).not.toBeInstanceOf(Webhook.WebhookUrlRejected)
      expect(String(error)).toContain("WEBHOOK_ALLOW_PRIVATE_TARGETS must be true or false")
    }))
})
