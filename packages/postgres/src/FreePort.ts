import { createServer } from "node:net"

/** A loopback port nobody listens on right now (for a throw-away database server, a test or a benchmark). */
export const freePort = () =>
  new Promise<number>((done, fail) => {
    const server = createServer()
    server.once("error", fail)
    server.listen(0, "127.0.0.1", () => {
      const port = (server.address() as { port: number }).port
      server.close(() => done(port))
    })
  })
