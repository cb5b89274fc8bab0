import { type AppCredential, signatureHeaders } from "@collector/api"
import { Effect } from "effect"
import { request as httpRequest } from "node:http"

export interface RawResponse {
  readonly status: number
  readonly headers: Record<string, string | Array<string> | undefined>
  readonly text: string
  readonly json: any
}

export interface RawRequest {
  readonly method: string
  /** Path plus the raw query exactly as it goes on the wire. */
  readonly target: string
  readonly body?: Uint8Array | string
  /** Header lines in order; a name may repeat. */
  readonly headers?: ReadonlyArray<readonly [string, string]>
}

/** Sends exactly the bytes described, with no client-side normalisation. */
export const send = (baseUrl: string, req: RawRequest) =>
  Effect.async<RawResponse, Error>((resume) => {
    const url = new URL(baseUrl)
    const body = typeof req.body === "string" ? Buffer.from(req.body, "utf8") : req.body === undefined ? undefined : Buffer.from(req.body)
    // Node's server rejects HTTP/1.1 requests without Host, and array headers get none by default.
    const flat: Array<string> = ["host", url.host]
    for (const [k, v] of req.headers ?? []) flat.push(k, v)
    if (body !== undefined && !(req.headers ?? []).some(([k]) => k.toLowerCase() === "content-length")) flat.push("content-length", String(body.length))
    const r = httpRequest({ host: url.hostname, port: url.port, method: req.method, path: req.target, headers: flat as never, agent: false }, (res) => {
      const chunks: Array<Buffer> = []
      res.on("data", (c: Buffer) => chunks.push(c))
      res.on("end", () => {
        const text = Buffer.concat(chunks).toString("utf8")
        let json: unknown = undefined
        try {
          json = JSON.parse(text)
        } catch {
          // Not JSON: tests look at `text`.
        }
        resume(Effect.succeed({ status: res.statusCode ?? 0, headers: res.headers, text, json }))
      })
    })
    r.on("error", (e) => resume(Effect.fail(e)))
    if (body !== undefined) r.write(body)
    r.end()
  })

export type Credentials = AppCredential

/** The signature headers (and the bearer header) for a request, as a tenant's client sends them. */
export const signedHeaders = (
  credentials: Credentials,
  req: { readonly method: string; readonly target: string; readonly body?: string | Uint8Array; readonly token?: string; readonly timestamp?: string }
): Array<readonly [string, string]> => {
  const timestamp = req.timestamp ?? String(Math.floor(Date.now() / 1000))
  const headers = signatureHeaders(credentials, { ...req, timestamp })
  // An empty bearer is sent as such: the gate's answer to it is under test.
  if (req.token === "") headers.push(["authorization", "Bearer "])
  if (req.body !== undefined) headers.push(["content-type", "application/json"])
  return headers
}
