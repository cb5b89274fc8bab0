import { Either } from "effect"
import { WebhookUrlRejected } from "./WebhookUrlRejected.js"

/** Longest accepted webhook URL, checked on the text as given and after normalisation. */
export const webhookUrlMaxLength = 2048

/**
 * A webhook URL that passed the syntactic rules. Whether its host is public is not known
 * yet: that needs DNS (or, for IP literals, address classification) and is the job of the
 * `WebhookTargets` adapter.
 */
export interface WebhookUrl {
  /** WHATWG-normalised URL (lowercase scheme and host, punycode for IDN, no default port). */
  readonly href: string
  /** Host to resolve and to send as SNI/Host; an IPv6 literal without its brackets. */
  readonly host: string
  /** IP literals are classified directly, without DNS. */
  readonly hostKind: "domain" | "ipv4" | "ipv6"
  /** 443 unless the operator allowed private targets and the URL names another port. */
  readonly port: number
}

export interface WebhookUrlOptions {
  /**
   * Accept a port other than 443. Only for deployments that allow private targets (tests
   * need a random loopback port); public targets are always held to 443.
   */
  readonly allowAnyPort?: boolean
}

const reject = (reason: string) => Either.left(new WebhookUrlRejected({ reason }))

/**
 * The WHATWG parser silently strips leading/trailing C0 controls and spaces and removes
 * tabs and newlines anywhere. Rejecting them keeps the text we store equal to what was
 * checked, and lets the raw-text checks below see exactly what the parser saw.
 */
const hasControlOrSpace = (text: string) => /[\u0000-\u0020\u007f]/.test(text)

/**
 * The authority as written: after the scheme and any run of slashes (the parser accepts
 * `\` as `/` for https), up to the first `/`, `\`, `?` or `#`. Needed because the parsed URL
 * forgets an empty user info (`https://@host/`) and a redundant port spelling (`:0443`).
 */
const writtenAuthority = (text: string) =>
  text.replace(/^[A-Za-z][A-Za-z0-9+.-]*:[/\\]*/, "").split(/[/\\?#]/, 1)[0] ?? ""

/** The port text after the host, or undefined when no `:` follows the host. */
const writtenPort = (authority: string): string | undefined => {
  const afterHost = authority.startsWith("[") ? authority.slice(authority.indexOf("]") + 1) : authority
  const colon = afterHost.indexOf(":")
  return colon === -1 ? undefined : afterHost.slice(colon + 1)
}

/**
 * A parsed special-scheme host is dotted-decimal only when the parser read it as IPv4
 * (a host whose last label is numeric is IPv4 or invalid), so this cannot misfire on names.
 */
const ipv4Pattern = /^\d{1,3}(?:\.\d{1,3}){3}$/

/**
 * Checks the URL rules that need no network: https only, port absent or exactly `443`,
 * no user info (not even an empty one), no fragment (not even an empty `#`), a host, and
 * at most `webhookUrlMaxLength` characters. A non-canonical port spelling such as `:0443`
 * is rejected although it means 443: the rule is about what the tenant wrote.
 */
export const parseWebhookUrl = (
  text: string,
  options: WebhookUrlOptions = {}
): Either.Either<WebhookUrl, WebhookUrlRejected> => {
  if (text === "") return reject("webhook URL is required")
  if (text.length > webhookUrlMaxLength) {
    return reject(`webhook URL must be at most ${webhookUrlMaxLength} characters`)
  }
  if (hasControlOrSpace(text)) return reject("webhook URL must not contain spaces or control characters")
  let url: URL
  try {
    url = new URL(text)
  } catch {
    return reject("webhook URL is not a valid URL")
  }
  if (url.protocol !== "https:") return reject("webhook URL must use https")
  const authority = writtenAuthority(text)
  if (authority.includes("@") || url.username !== "" || url.password !== "") {
    return reject("webhook URL must not contain user credentials")
  }
  const port = writtenPort(authority)
  const anyPort = options.allowAnyPort === true && port !== undefined && /^[1-9][0-9]{0,4}$/.test(port) && Number(port) <= 65535
  if (!anyPort && (url.port !== "" || (port !== undefined && port !== "443"))) return reject("webhook URL must use port 443")
  // `#` can only ever start a fragment, and `url.hash` is "" for a bare trailing `#`.
  if (text.includes("#") || url.hash !== "") return reject("webhook URL must not contain a fragment")
  if (url.hostname === "") return reject("webhook URL must have a host")
  // Normalisation can lengthen the text (punycode, percent-encoding).
  if (url.href.length > webhookUrlMaxLength) {
    return reject(`webhook URL must be at most ${webhookUrlMaxLength} characters`)
  }
  const bracketed = url.hostname.startsWith("[")
  return Either.right({
    href: url.href,
    host: bracketed ? url.hostname.slice(1, -1) : url.hostname,
    hostKind: bracketed ? "ipv6" : ipv4Pattern.test(url.hostname) ? "ipv4" : "domain",
    port: url.port === "" ? 443 : Number(url.port)
  })
}
