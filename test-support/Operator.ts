import { connect } from "node:net"

/** One sample line of Prometheus text. */
export interface Sample {
  readonly name: string
  readonly labels: Readonly<Record<string, string>>
  readonly value: number
}

/** The samples of a Prometheus text page (our label values hold no quotes or commas). */
export const samplesOf = (text: string): ReadonlyArray<Sample> =>
  text.split("\n").flatMap((line) => {
    const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line)
    if (match === null) return []
    const labels = Object.fromEntries([...(match[2] ?? "").matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="([^"]*)"/g)].map(([, key, value]) => [key!, value!]))
    return [{ name: match[1]!, labels, value: Number(match[3]) }]
  })

/** The value of the sample with exactly these labels; undefined when there is none. */
export const valueOf = (text: string, name: string, labels: Readonly<Record<string, string>> = {}) => {
  const wanted = Object.entries(labels)
  return samplesOf(text).find((s) =>
    s.name === name && Object.keys(s.labels).length === wanted.length && wanted.every(([key, value]) => s.labels[key] === value)
  )?.value
}

export const scrape = (port: number, host = "127.0.0.1") => fetch(`http://${host}:${port}/metrics`).then((r) => r.text())

export interface ReadyAnswer {
  readonly status: number
  readonly body: {
    readonly status: string
    readonly not_ready: ReadonlyArray<{ readonly component: string; readonly network?: string; readonly reason: string }>
    readonly checks: ReadonlyArray<{ readonly component: string; readonly network?: string; readonly ready: boolean; readonly detail: string }>
  }
}

export const readyz = (port: number): Promise<ReadyAnswer> =>
  fetch(`http://127.0.0.1:${port}/readyz`).then(async (r) => ({ status: r.status, body: await r.json() }))

/** Whether a TCP connection to host:port is accepted. */
export const accepts = (host: string, port: number) =>
  new Promise<boolean>((done) => {
    const socket = connect(port, host)
    socket.once("connect", () => (socket.destroy(), done(true)))
    socket.once("error", () => done(false))
  })
