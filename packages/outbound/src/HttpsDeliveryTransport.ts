import { Notifications, type Webhook } from "@collector/core"

import { type ConfigError, Effect, Either, Layer } from "effect"
import { Agent, request as httpsRequest } from "node:https"
import { isIP } from "node:net"
import { checkServerIdentity, createSecureContext, rootCertificates } from "node:tls"
import { webhookDeliveryConfig, type WebhookDeliverySettings } from "./WebhookDeliveryConfig.js"

export interface Options {
  /** Extra trusted CA certificates (PEM), added to Node's bundled roots, never replacing them. */
  readonly extraCa?: string
  /** Accept a target port other than 443; only with private targets allowed (tests, private deployments). */
  readonly allowAnyPort?: boolean
  /** From the start of the request until the TCP and TLS handshakes are done. */
  readonly connectTimeoutMs?: number
  /** From the start of the request until the whole response is read (the contract: 10 s). */
  readonly responseTimeoutMs?: number
  /** Most response bytes read; a longer body is cut off and the response marked truncated. */
  readonly maxResponseBytes?: number
}

export const defaults = { connectTimeoutMs: 5_000, responseTimeoutMs: 10_000, maxResponseBytes: 64 * 1024 } as const

const codeOf = (error: unknown): string =>
  typeof error === "object" && error !== null && "code" in error ? String(error.code) : "ERROR"

/** Node's error codes sorted into the failure kinds the dispatcher reports. */
const classify = (error: unknown, host: string, address: string, port: number): Notifications.DeliveryFailed => {
  const code = codeOf(error)
  const where = `${host} (${address}:${port})`
  if (code === "ECONNREFUSED" || code === "EHOSTUNREACH" || code === "ENETUNREACH" || code === "EADDRNOTAVAIL") {
    return new Notifications.DeliveryFailed({ kind: "connect", message: `could not connect to ${where}: ${code}` })
  }
  if (code === "ECONNRESET" || code === "EPIPE" || code === "HPE_INVALID_CONSTANT" || code.startsWith("HPE_")) {
    return new Notifications.DeliveryFailed({ kind: "protocol", message: `connection to ${where} failed: ${code}` })
  }
  const message = error instanceof Error ? error.message : String(error)
  // Certificate and handshake failures: Node reports OpenSSL's codes or ERR_TLS_* / ERR_SSL_*.
  return new Notifications.DeliveryFailed({ kind: "tls", message: `TLS failure with ${where}: ${code} ${message}`.trim() })
}

/**
 * POSTs to the checked addresses only: the socket goes to a target's `address`, while SNI, the
 * certificate check and the Host header use the URL's host, so DNS is never consulted again
 * and a rebinding answer cannot redirect the request. Redirects are returned, never followed
 * (node:https does not follow them). All timers are real time, independent of Effect's Clock.
 * Each POST is driven by Node's callbacks alone, with no fiber of its own.
 */
export const make = (options: Options = {}): Notifications.DeliveryTransport["Type"] => {
  const connectTimeoutMs = options.connectTimeoutMs ?? defaults.connectTimeoutMs
  const responseTimeoutMs = options.responseTimeoutMs ?? defaults.responseTimeoutMs
  const maxResponseBytes = options.maxResponseBytes ?? defaults.maxResponseBytes
  // Built once: a CA list passed per request makes Node parse every root certificate again for
  // each attempt (about 10 ms and megabytes of garbage each).
  const secureContext = options.extraCa === undefined ? undefined : createSecureContext({ ca: [...rootCertificates, options.extraCa] })
  // Connections are kept and reused per checked address and server name: a connection is only
  // ever reused by an attempt whose own check produced that same address.
  // As many may wait free as may be open: with fewer, the connections of a burst above that count
  // were closed as they came free and the next burst paid a TLS handshake for each again.
  const agent = new Agent({ keepAlive: true, keepAliveMsecs: 1000, maxSockets: 256, maxFreeSockets: 256, timeout: 4000, scheduling: "lifo" })

  /**
   * One POST to one address, answered by `deadline` (epoch ms) at the latest; `done` is called
   * exactly once unless the returned abort comes first.
   */
  const postTo = (
    url: URL,
    target: Webhook.ResolvedTarget,
    input: Notifications.DeliveryRequest,
    body: Buffer,
    deadline: number,
    done: (result: Notifications.DeliveryResult) => void
  ): () => void => {
    if (target.port !== 443 && options.allowAnyPort !== true) {
      done(Either.left(new Notifications.DeliveryFailed({ kind: "protocol", message: "webhook URL must use port 443" })))
      return () => {}
    }
    const ipHost = isIP(target.host)
    const hostHeader = (ipHost === 6 ? `[${target.host}]` : target.host) + (target.port === 443 ? "" : `:${target.port}`)
    let settled = false
    let connectTimer: NodeJS.Timeout | undefined
    /** Ends the POST once: true for the first caller, who then reports or aborts. */
    const stop = () => {
      if (settled) return false
      settled = true
      clearTimeout(responseTimer)
      if (connectTimer !== undefined) clearTimeout(connectTimer)
      return true
    }
    const finish = (result: Notifications.DeliveryResult) => {
      if (stop()) done(result)
    }
    const headers: Record<string, string> = { ...input.headers, Host: hostHeader, "Content-Length": String(body.length) }
    const req = httpsRequest({
      host: target.address,
      family: target.family,
      port: target.port,
      // RFC 6066 forbids an IP address as SNI; an IP-literal URL is verified against the IP.
      ...(ipHost === 0 ? { servername: target.host } : {}),
      checkServerIdentity: (_name, cert) => checkServerIdentity(target.host, cert),
      ...(secureContext === undefined ? {} : { secureContext }),
      rejectUnauthorized: true,
      method: "POST",
      path: `${url.pathname}${url.search}`,
      agent,
      headers
    })
    const fail = (error: Notifications.DeliveryFailed) => {
      finish(Either.left(error))
      req.destroy()
    }
    const responseTimer = setTimeout(() =>
      fail(new Notifications.DeliveryFailed({ kind: "timeout", message: `no complete response within ${responseTimeoutMs} ms` })), Math.max(0, deadline - Date.now()))
    req.once("socket", (socket) => {
      // A kept connection is already established (and was verified when it was made).
      if (!socket.connecting) return
      connectTimer = setTimeout(() =>
        fail(new Notifications.DeliveryFailed({ kind: "connect", message: `could not connect to ${target.host} (${target.address}:${target.port}) within ${connectTimeoutMs} ms` })), connectTimeoutMs)
      socket.once("secureConnect", () => clearTimeout(connectTimer))
    })
    req.once("error", (error) => finish(Either.left(classify(error, target.host, target.address, target.port))))
    req.once("response", (res) => {
      const chunks: Array<Buffer> = []
      let size = 0
      let truncated = false
      const complete = () => {
        const location = res.headers.location
        finish(Either.right({
          status: res.statusCode ?? 0,
          body: chunks.length === 1 ? chunks[0]!.toString("utf8") : Buffer.concat(chunks).toString("utf8"),
          truncated,
          location: typeof location === "string" ? location : null
        }))
      }
      res.on("data", (chunk: Buffer) => {
        if (truncated) return
        const room = maxResponseBytes - size
        if (chunk.length > room) {
          chunks.push(chunk.subarray(0, room))
          size = maxResponseBytes
          truncated = true
          // Stop reading: the verdict is already known and the rest may be endless.
          complete()
          req.destroy()
          return
        }
        chunks.push(chunk)
        size += chunk.length
      })
      res.once("end", complete)
      res.once("error", (error) => finish(Either.left(classify(error, target.host, target.address, target.port))))
    })
    req.end(body)
    return () => {
      if (stop()) req.destroy()
    }
  }

  /**
   * One request: its targets in order while the connection fails. The response window is the
   * attempt's, not each address's: a second address gets what the first left of it, so an
   * attempt never outlasts the lookup plus that window (which the claim lease is sized for).
   */
  const post = (url: URL | null, input: Notifications.DeliveryRequest, done: (result: Notifications.DeliveryResult) => void): () => void => {
    if (url === null || url.protocol !== "https:") {
      done(Either.left(new Notifications.DeliveryFailed({ kind: "protocol", message: "webhook URL must use https" })))
      return () => {}
    }
    if (input.targets.length === 0) {
      done(Either.left(new Notifications.DeliveryFailed({ kind: "connect", message: "no checked address to connect to" })))
      return () => {}
    }
    const body = Buffer.from(input.body, "utf8")
    const deadline = Date.now() + responseTimeoutMs
    let abort = () => {}
    const next = (index: number) => {
      abort = postTo(url, input.targets[index]!, input, body, deadline, (result) => {
        if (Either.isLeft(result) && result.left.kind === "connect" && index + 1 < input.targets.length) next(index + 1)
        else done(result)
      })
    }
    next(0)
    return () => abort()
  }

  const postEach: Notifications.DeliveryTransport["Type"]["postEach"] = (requests, settled) =>
    Effect.async<void>((resume) => {
      let open = requests.length
      if (open === 0) {
        resume(Effect.void)
        return
      }
      // A callback that throws must not escape into Node's event handlers (an uncaught
      // exception) nor stop the count: the batch ends as a defect once every POST is reported.
      let thrown: { readonly error: unknown } | undefined
      const aborts: Array<() => void> = []
      // The requests of a batch usually share their URL: parsed once for them.
      const urls = new Map<string, URL | null>()
      requests.forEach((input, index) => {
        let url = urls.get(input.url)
        if (url === undefined) {
          url = URL.canParse(input.url) ? new URL(input.url) : null
          urls.set(input.url, url)
        }
        aborts.push(post(url, input, (result) => {
          try {
            settled(index, result)
          } catch (error) {
            thrown ??= { error }
          }
          if (--open === 0) resume(thrown === undefined ? Effect.void : Effect.die(thrown.error))
        }))
      })
      return Effect.sync(() => {
        for (const abort of aborts) abort()
      })
    })

  return Notifications.DeliveryTransport.of({ postEach })
}

export const layer = (options: Options = {}): Layer.Layer<Notifications.DeliveryTransport> => Layer.succeed(Notifications.DeliveryTransport, make(options))

/** From the operator settings: the extra CA file, and other ports only with private targets allowed. */
export const fromSettings = (settings: WebhookDeliverySettings): Notifications.DeliveryTransport["Type"] =>
  make({ ...(settings.extraCa === undefined ? {} : { extraCa: settings.extraCa }), allowAnyPort: settings.allowPrivateTargets })

/** From the settings of `config` (by default WEBHOOK_ALLOW_PRIVATE_TARGETS and WEBHOOK_EXTRA_CA_FILE). */
export const layerConfig = (
  config: Effect.Effect<WebhookDeliverySettings, ConfigError.ConfigError> = webhookDeliveryConfig
): Layer.Layer<Notifications.DeliveryTransport, ConfigError.ConfigError> => Layer.effect(Notifications.DeliveryTransport, Effect.map(config, fromSettings))
