import { readFileSync } from "node:fs"
import { http, HttpResponse } from "msw"
import type { SetupServer } from "msw/node"
import type { NodePath } from "../NodeClient.js"

/**
 * A node for tests: msw answers the adapter's real fetch requests with recorded java-tron replies
 * (the fixtures in test-fixtures/tron) and keeps every request it saw, so tests can check what was
 * sent and how many calls a method made.
 */

export const fullNodeUrl = "http://full-node.test"
/** Another host, so that tests also prove `/walletsolidity/*` goes to the solidity URL. */
export const solidityUrl = "http://solidity-node.test"

/** The exact text of a recorded reply. */
export const fixtureText = (name: string): string =>
  readFileSync(new URL(`../../../../test-fixtures/tron/${name}`, import.meta.url), "utf8")

export const fixture = (name: string): any => JSON.parse(fixtureText(name))

/**
 * The recorded mainnet header (block 71723395) renumbered to `number`: no header of block
 * 84940364, whose receipts were recorded, was captured. The blockID and parentHash start with
 * their block numbers, as java-tron's do.
 */
export const renumberedHeader = (number: bigint, txTrieRoot?: string) => {
  const recorded = fixture("mainnet_getblockbynum_71723395_abridged.json")
  const prefix = (n: bigint) => n.toString(16).padStart(16, "0")
  return {
    blockID: prefix(number) + recorded.blockID.slice(16),
    block_header: {
      ...recorded.block_header,
      raw_data: {
        ...recorded.block_header.raw_data,
        number: Number(number),
        parentHash: prefix(number - 1n) + recorded.block_header.raw_data.parentHash.slice(16),
        txTrieRoot: txTrieRoot ?? recorded.block_header.raw_data.txTrieRoot
      }
    }
  }
}

/** java-tron answers with HTTP 200 and a JSON body, errors included. */
export const jsonResponse = (body: unknown, status = 200): Response =>
  new HttpResponse(typeof body === "string" ? body : JSON.stringify(body), {
    status,
    headers: { "content-type": "application/json" }
  })

export interface SeenRequest {
  readonly url: string
  readonly path: string
  readonly body: any
  readonly headers: Headers
}

/** A reply: a JSON value (a string is sent as raw JSON text), a Response, or a function of the request body. */
export type Reply = unknown | ((body: any) => unknown)

export const makeFakeNode = (server: SetupServer) => {
  const seen: Array<SeenRequest> = []
  const on = (path: NodePath, reply: Reply, base = path.startsWith("/walletsolidity/") ? solidityUrl : fullNodeUrl) => {
    server.use(
      http.post(`${base}${path}`, async ({ request }) => {
        const text = await request.text()
        const body = text === "" ? undefined : JSON.parse(text)
        seen.push({ url: request.url, path, body, headers: request.headers })
        const value = typeof reply === "function" ? await reply(body) : reply
        return value instanceof Response ? value : jsonResponse(value)
      })
    )
  }
  return { seen, on, paths: () => seen.map((request) => request.path) }
}
