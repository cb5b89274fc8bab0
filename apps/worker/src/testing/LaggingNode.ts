import { Effect } from "effect"
import { createServer, type IncomingMessage } from "node:http"

interface BlockJson {
  blockID?: string
  block_header: { raw_data: { number: number } }
}

const bodyOf = (request: IncomingMessage) =>
  new Promise<Record<string, unknown>>((done) => {
    const chunks: Array<Buffer> = []
    request.on("data", (chunk: Buffer) => chunks.push(chunk))
    request.on("end", () => {
      const text = Buffer.concat(chunks).toString("utf8")
      done(text === "" ? {} : JSON.parse(text) as Record<string, unknown>)
    })
  })

/**
 * A java-tron HTTP node that is the simulator at `upstream` but `lag` blocks behind it (head and
 * solidified block alike, nothing above them served): what a worker given several node URLs
 * (`TRON_<NETWORK>_NODE_URLS`) must see through. Counts the requests it served, so a test can tell
 * that the worker did ask it. Closed with the scope.
 */
export const startLaggingNode = (upstream: string, lag: bigint) =>
  Effect.acquireRelease(
    Effect.async<{ readonly url: string; readonly requests: () => number; readonly server: ReturnType<typeof createServer> }>((resume) => {
      let requests = 0
      const forward = async (path: string, body: unknown) =>
        (await fetch(`${upstream}${path}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) })).text()
      // Parsed only where a block's number is read (small numbers); everything else passes as the node's own text.
      const numberOf = async (path: string) => BigInt((JSON.parse(await forward(path, { detail: false })) as BlockJson).block_header.raw_data.number)
      const lastServed = async () => (await numberOf("/wallet/getblock")) - lag

      const answer = async (path: string, body: Record<string, unknown>): Promise<string> => {
        switch (path) {
          case "/wallet/getblock":
          case "/walletsolidity/getblock": {
            const asked = body.id_or_num === undefined
              ? (await numberOf(path)) - lag
              : BigInt(String(body.id_or_num))
            if (asked > (await lastServed())) return "{}"
            return forward(path, { ...body, id_or_num: asked.toString() })
          }
          case "/wallet/gettransactioninfobyblocknum":
            return BigInt(String(body.num)) > (await lastServed()) ? "[]" : forward(path, body)
          default:
            return forward(path, body)
        }
      }

      const server = createServer((request, response) => {
        requests++
        void bodyOf(request).then((body) => answer(request.url ?? "", body)).then(
          (reply) => response.writeHead(200, { "content-type": "application/json" }).end(reply),
          (error: unknown) => response.writeHead(500).end(String(error))
        )
      })
      server.listen(0, "127.0.0.1", () => {
        const address = server.address()
        const port = typeof address === "object" && address !== null ? address.port : 0
        resume(Effect.succeed({ url: `http://127.0.0.1:${port}`, requests: () => requests, server }))
      })
    }),
    ({ server }) => Effect.async<void>((resume) => {
      server.closeAllConnections()
      server.close(() => resume(Effect.void))
    })
  )
