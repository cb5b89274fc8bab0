import { Effect } from "effect"
import { createHash } from "node:crypto"
import { createServer, type IncomingMessage } from "node:http"

/**
 * What a node in front of the simulator gets wrong: its chain `blocks` behind the network's (head
 * and solidified block alike, nothing above them served), or another fork above the solidified
 * block (each block there with a hash of its own, its parent the fork's, and no transactions).
 */
export type NodeFaultMode =
  | { readonly _tag: "lagging"; readonly blocks: bigint }
  | { readonly _tag: "forked"; readonly salt: string }

interface BlockJson {
  blockID: string
  block_header: { raw_data: { number: number; parentHash: string; txTrieRoot: string } }
  transactions?: unknown
}

const zeroRoot = "0".repeat(64)
const forkedHash = (salt: string, hash: string) => createHash("sha256").update(`${salt}:${hash}`).digest("hex")

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
 * A java-tron HTTP node that is the simulator at `upstream` but for `mode`: what a worker given
 * several node URLs (`TRON_<NETWORK>_NODE_URLS`) must see through. Counts the requests it served,
 * so a test can tell that the worker did ask it. Closed with the scope.
 */
export const startFaultyNode = (upstream: string, mode: NodeFaultMode) =>
  Effect.acquireRelease(
    Effect.async<{ readonly url: string; readonly requests: () => number; readonly faulty: () => number; readonly server: ReturnType<typeof createServer> }>((resume) => {
      let requests = 0
      // Answers the fault changed (a block withheld or forked, receipts withheld).
      let faulty = 0
      const forward = async (path: string, body: unknown) =>
        (await fetch(`${upstream}${path}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) })).text()
      // Parsed only where a block's header is read or rewritten (small numbers); everything else passes as the node's own text.
      const post = async (path: string, body: unknown) => JSON.parse(await forward(path, body)) as unknown
      const raw = (text: string) => ({ raw: text })
      const numberOf = (block: unknown) => BigInt((block as BlockJson).block_header.raw_data.number)
      const head = async () => numberOf(await post("/wallet/getblock", { detail: false }))
      const solidified = async () => numberOf(await post("/walletsolidity/getblock", { detail: false }))

      /** The block the faulty node serves at `number` (undefined: it has none). */
      const blockAt = async (number: bigint, detail: unknown): Promise<BlockJson | undefined> => {
        if (mode._tag === "lagging" && number > (await head()) - mode.blocks) {
          faulty++
          return undefined
        }
        const block = await post("/wallet/getblock", { id_or_num: number.toString(), detail }) as BlockJson
        if (mode._tag === "lagging" || block.blockID === undefined) return block.blockID === undefined ? undefined : block
        const solid = await solidified()
        if (number <= solid) return block
        const raw = block.block_header.raw_data
        faulty++
        return {
          blockID: forkedHash(mode.salt, block.blockID),
          block_header: { ...block.block_header, raw_data: { ...raw, txTrieRoot: zeroRoot, parentHash: number - 1n > solid ? forkedHash(mode.salt, raw.parentHash) : raw.parentHash } }
        }
      }

      const answer = async (path: string, body: Record<string, unknown>): Promise<unknown | { raw: string }> => {
        const lag = mode._tag === "lagging" ? mode.blocks : 0n
        switch (path) {
          case "/wallet/getblock":
          case "/walletsolidity/getblock": {
            const asked = body.id_or_num
            if (asked === undefined) {
              const latest = path === "/wallet/getblock" ? (await head()) - lag : (await solidified()) - lag
              return path === "/wallet/getblock" ? (await blockAt(latest, body.detail)) ?? {} : post(path, { id_or_num: latest.toString(), detail: body.detail })
            }
            return (await blockAt(BigInt(String(asked)), body.detail)) ?? {}
          }
          case "/wallet/gettransactioninfobyblocknum": {
            const number = BigInt(String(body.num))
            const beyond = mode._tag === "lagging" ? number > (await head()) - lag : number > (await solidified())
            if (beyond) faulty++
            return beyond ? [] : raw(await forward(path, body))
          }
          default:
            return raw(await forward(path, body))
        }
      }

      const server = createServer((request, response) => {
        requests++
        void bodyOf(request).then((body) => answer(request.url ?? "", body)).then(
          (reply) =>
            response.writeHead(200, { "content-type": "application/json" }).end(
              typeof reply === "object" && reply !== null && "raw" in reply ? (reply as { raw: string }).raw : JSON.stringify(reply)
            ),
          (error: unknown) => response.writeHead(500).end(String(error))
        )
      })
      server.listen(0, "127.0.0.1", () => {
        const address = server.address()
        const port = typeof address === "object" && address !== null ? address.port : 0
        resume(Effect.succeed({ url: `http://127.0.0.1:${port}`, requests: () => requests, faulty: () => faulty, server }))
      })
    }),
    ({ server }) => Effect.async<void>((resume) => {
      server.closeAllConnections()
      server.close(() => resume(Effect.void))
    })
  )
