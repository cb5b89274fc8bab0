import { describe, expect, it } from "@effect/vitest"
import { Either } from "effect"
import { parseWebhookUrl, webhookUrlMaxLength } from "./WebhookUrl.js"
import { WebhookUrlRejected } from "./WebhookUrlRejected.js"

/** A URL of exactly `length` characters. */
const urlOfLength = (length: number) => {
  const prefix = "https://example.com/"
  return prefix + "a".repeat(length - prefix.length)
}

const reason = (text: string) => {
  const result = parseWebhookUrl(text)
  if (Either.isRight(result)) throw new Error(`expected ${JSON.stringify(text)} to be rejected`)
  expect(result.left).toBeInstanceOf(WebhookUrlRejected)
  expect(result.left.message).toBe(result.left.reason)
  return result.left.reason
}

const parsed = (text: string) => {
  const result = parseWebhookUrl(text)
  if (Either.isLeft(result)) throw new Error(`expected ${JSON.stringify(text)} to pass: ${result.left.reason}`)
  return result.right
}

describe("parseWebhookUrl with allowAnyPort (private targets allowed)", () => {
  it("accepts another port and reports it; the rest of the rules still apply", () => {
    expect(Either.getOrThrow(parseWebhookUrl("https://127.0.0.1:8443/x", { allowAnyPort: true }))).toEqual({
      href: "https://127.0.0.1:8443/x",
      host: "127.0.0.1",
      hostKind: "ipv4",
      port: 8443
    })
    expect(Either.isLeft(parseWebhookUrl("https://127.0.0.1:8443/x"))).toBe(true)
    expect(Either.isLeft(parseWebhookUrl("https://127.0.0.1:08443/x", { allowAnyPort: true }))).toBe(true)
    expect(Either.isLeft(parseWebhookUrl("http://127.0.0.1:8443/x", { allowAnyPort: true }))).toBe(true)
  })
})

describe("parseWebhookUrl accepts", () => {
  it.each([
    ["https://example.com/hook", { href: "https://example.com/hook", host: "example.com", hostKind: "domain" }],
    ["https://example.com/hook?a=1&b=2", { href: "https://example.com/hook?a=1&b=2", host: "example.com", hostKind: "domain" }],
    // An explicit default port is allowed and normalised away.
    ["https://example.com:443/hook", { href: "https://example.com/hook", host: "example.com", hostKind: "domain" }],
    ["HTTPS://Example.COM/Hook", { href: "https://example.com/Hook", host: "example.com", hostKind: "domain" }],
    // IDN hosts become punycode, which is what DNS and the certificate use.
    ["https://bücher.example/", { href: "https://xn--bcher-kva.example/", host: "xn--bcher-kva.example", hostKind: "domain" }],
    // An absolute name; kept as written so Host matches the URL.
    ["https://example.com./", { href: "https://example.com./", host: "example.com.", hostKind: "domain" }],
    ["https://8.8.8.8/hook", { href: "https://8.8.8.8/hook", host: "8.8.8.8", hostKind: "ipv4" }],
    [
      "https://[2606:2800:220:1:248:1893:25c8:1946]:443/",
      { href: "https://[2606:2800:220:1:248:1893:25c8:1946]/", host: "2606:2800:220:1:248:1893:25c8:1946", hostKind: "ipv6" }
    ],
    // Syntactically fine; the adapter rejects them as non-public. What matters here is that
    // the odd spellings are exposed as the IP literals they are, not as names.
    ["https://127.0.0.1/", { href: "https://127.0.0.1/", host: "127.0.0.1", hostKind: "ipv4" }],
    ["https://0x7f.1/", { href: "https://127.0.0.1/", host: "127.0.0.1", hostKind: "ipv4" }],
    ["https://2130706433/", { href: "https://127.0.0.1/", host: "127.0.0.1", hostKind: "ipv4" }],
    ["https://%31%32%37.0.0.1/", { href: "https://127.0.0.1/", host: "127.0.0.1", hostKind: "ipv4" }],
    ["https://127.0.0.1./", { href: "https://127.0.0.1/", host: "127.0.0.1", hostKind: "ipv4" }],
    ["https://[::ffff:192.168.0.1]/", { href: "https://[::ffff:c0a8:1]/", host: "::ffff:c0a8:1", hostKind: "ipv6" }],
    ["https://localhost/", { href: "https://localhost/", host: "localhost", hostKind: "domain" }]
  ] as const)("%s", (text, expected) => {
    expect(parsed(text)).toEqual({ ...expected, port: 443 })
  })

  it(`a URL of exactly ${webhookUrlMaxLength} characters`, () => {
    expect(parsed(urlOfLength(webhookUrlMaxLength)).href).toHaveLength(webhookUrlMaxLength)
  })
})

describe("parseWebhookUrl rejects", () => {
  it.each([
    ["", "webhook URL is required"],
    ["example.com/hook", "webhook URL is not a valid URL"],
    ["//example.com/hook", "webhook URL is not a valid URL"],
    ["https://", "webhook URL is not a valid URL"],
    ["https://exa mple.com/", "webhook URL must not contain spaces or control characters"],
    [" https://example.com/", "webhook URL must not contain spaces or control characters"],
    ["https://example.com/\n", "webhook URL must not contain spaces or control characters"],
    ["https://exa\tmple.com/", "webhook URL must not contain spaces or control characters"],
    ["http://example.com/", "webhook URL must use https"],
    ["ftp://example.com/", "webhook URL must use https"],
    ["wss://example.com/", "webhook URL must use https"],
    ["javascript:alert(1)", "webhook URL must use https"],
    // The scheme is reported first when several rules fail.
    ["http://user@example.com:80/#f", "webhook URL must use https"],
    ["https://example.com:80/", "webhook URL must use port 443"],
    ["https://example.com:8443/", "webhook URL must use port 443"],
    // Means 443 to the parser, but the rule is about what was written.
    ["https://example.com:0443/", "webhook URL must use port 443"],
    ["https://example.com:/", "webhook URL must use port 443"],
    ["https://[2606:2800:220:1:248:1893:25c8:1946]:8443/", "webhook URL must use port 443"],
    ["https://user:pass@example.com/", "webhook URL must not contain user credentials"],
    ["https://user@example.com/", "webhook URL must not contain user credentials"],
    ["https://:pass@example.com/", "webhook URL must not contain user credentials"],
    // Empty user info vanishes from the parsed URL, so it is caught in the text.
    ["https://@example.com/", "webhook URL must not contain user credentials"],
    ["https://:@example.com/", "webhook URL must not contain user credentials"],
    ["https:\\\\user@example.com\\hook", "webhook URL must not contain user credentials"],
    ["https://example.com/hook#frag", "webhook URL must not contain a fragment"],
    // `URL.hash` is "" here, so this needs the text check.
    ["https://example.com/hook#", "webhook URL must not contain a fragment"],
    ["https://example.com/hook?a=1#", "webhook URL must not contain a fragment"],
    ["https://[fe80::1%25eth0]/", "webhook URL is not a valid URL"],
    ["https://1.2.3.4.5/", "webhook URL is not a valid URL"],
    [urlOfLength(webhookUrlMaxLength + 1), `webhook URL must be at most ${webhookUrlMaxLength} characters`]
  ])("%j", (text, expected) => {
    expect(reason(text)).toBe(expected)
  })

  it("a URL that is short enough as written but too long once normalised", () => {
    const text = urlOfLength(webhookUrlMaxLength - 10) + "é".repeat(10)
    expect(text.length).toBe(webhookUrlMaxLength)
    expect(reason(text)).toBe(`webhook URL must be at most ${webhookUrlMaxLength} characters`)
  })
})
