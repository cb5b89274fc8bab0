import type { IncomingMessage } from "node:http"

/** A request body over the limit: answered 413, never buffered further. */
export class BodyTooLarge extends Error {}

/** The request's body bytes exactly as received, refusing more than `limit` bytes. */
export const readRawBody = (request: IncomingMessage, limit: number): Promise<Buffer> =>
  new Promise((resolve, reject) => {
    const chunks: Array<Buffer> = []
    let size = 0
    request.on("data", (chunk: Buffer) => {
      size += chunk.length
      if (size > limit) {
        reject(new BodyTooLarge(`body exceeds ${limit} bytes`))
        request.destroy()
        return
      }
      chunks.push(chunk)
    })
    request.on("end", () => resolve(Buffer.concat(chunks)))
    request.on("error", reject)
  })
