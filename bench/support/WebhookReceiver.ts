import { readFileSync } from "node:fs"
import { createServer } from "node:https"
import type { AddressInfo } from "node:net"
import { join } from "node:path"
import { performance } from "node:perf_hooks"
import { repositoryRoot } from "../../test-support/Processes.js"

/** The test CA and server certificate the benchmarks' tenants receive webhooks with. */
export const tlsDir = join(repositoryRoot, "packages", "outbound", "fixtures", "tls")

/**
 * A tenant's HTTPS webhook receiver on the loopback: answers every POST at once with
 * `{"code":0}` and keeps when each event's first POST arrived (`performance.timeOrigin +
 * performance.now()` when its headers were read), by `X-Event-Id`.
 */
export const startWebhookReceiver = () =>
  new Promise<{ port: number; firstPost: Map<string, number>; close: () => void }>((done) => {
    const firstPost = new Map<string, number>()
    const server = createServer({ key: readFileSync(join(tlsDir, "server.key")), cert: readFileSync(join(tlsDir, "server.pem")) }, (req, res) => {
      const at = performance.timeOrigin + performance.now()
      const event = String(req.headers["x-event-id"] ?? "")
      if (!firstPost.has(event)) firstPost.set(event, at)
      req.resume()
      req.on("end", () => res.writeHead(200, { "content-type": "application/json" }).end('{"code":0}'))
    })
    server.listen(0, "127.0.0.1", () => done({ port: (server.address() as AddressInfo).port, firstPost, close: () => server.close() }))
  })
