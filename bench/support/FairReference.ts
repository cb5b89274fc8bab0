import { freePort, startTs, waitForHttp } from "../../test-support/Processes.js"
import { checkReferenceStatements } from "./CapturedStatements.js"
import type { LoadRequest } from "./Load.js"
import type { BenchApp } from "./Signing.js"
import { startTimeoutMs } from "./StartTimeout.js"

/**
 * Starts bench/support/ReferenceApiServer.ts in its own process over `databaseUrl`, accepting
 * `app`, after checking that its statements are our adapters' (text and parameters). Returns its URL
 * process ID and start time (`Date.now()` at its spawn); `nodeArgs` go to its node (a CPU profile's flags).
 */
export const startReferenceApi = async (databaseUrl: string, app: BenchApp, nodeArgs: ReadonlyArray<string> = []) => {
  const compared = await checkReferenceStatements()
  console.log(`reference statements: the same text and parameters as our adapters' (${compared} statements compared)`)
  const port = await freePort()
  const startedAt = Date.now()
  const child = startTs("bench/support/ReferenceApiServer.ts", { PORT: String(port), DATABASE_URL: databaseUrl, APP_ID: app.appId, APP_SECRET: app.secret }, { nodeArgs })
  const url = `http://127.0.0.1:${port}`
  await waitForHttp(url, startTimeoutMs)
  return { url, pid: child.pid!, startedAt }
}

const call = async (baseUrl: string, shape: LoadRequest) => {
  const res = await fetch(`${baseUrl}${shape.path}`, { method: shape.method, headers: shape.headers ?? {}, ...(shape.body === undefined ? {} : { body: shape.body }) })
  return { status: res.status, text: await res.text() }
}

const shapeOf = (value: unknown): unknown =>
  value === null ? null : Array.isArray(value) ? value.map(shapeOf) : typeof value === "object" ? Object.fromEntries(Object.entries(value).map(([k, v]) => [k, shapeOf(v)])) : typeof value

/**
 * One request to each server; throws unless both answer 200 with the same body, byte for byte
 * (`exact`), or with the same envelope shape: keys in the same order, values of the same types
 * (a token differs from server to server).
 */
export const sameResponse = async (label: string, oursUrl: string, ours: LoadRequest, referenceUrl: string, reference: LoadRequest, exact: boolean) => {
  const a = await call(oursUrl, ours)
  const b = await call(referenceUrl, reference)
  const alike = exact ? a.text === b.text : JSON.stringify(shapeOf(JSON.parse(a.text))) === JSON.stringify(shapeOf(JSON.parse(b.text)))
  if (a.status !== 200 || b.status !== 200 || !alike) {
    throw new Error(`${label}: the reference answers differently\nours (${a.status}):      ${a.text.slice(0, 600)}\nreference (${b.status}): ${b.text.slice(0, 600)}`)
  }
  console.log(`${label}: ${exact ? `the same body, ${a.text.length} bytes` : `the same envelope shape (${a.text.length} and ${b.text.length} bytes)`}`)
}

/** `RATIO <name> <ours>/<reference> = <percent>%`, rates in requests per second. */
export const ratioLine = (name: string, ours: number, reference: number) =>
  `RATIO ${name} ${ours.toFixed(0)}/${reference.toFixed(0)} = ${((ours / reference) * 100).toFixed(1)}%`
