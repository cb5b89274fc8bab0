import { createServer } from "node:http"

// The reference: a bare Node HTTP server answering a small JSON envelope, nothing else.
const body = JSON.stringify({ code: 0, message: "", data: { ok: true } })
createServer((_req, res) => {
  res.writeHead(200, { "content-type": "application/json", "cache-control": "no-store" })
  res.end(body)
}).listen(Number(process.env.PORT), "127.0.0.1")
