import { expect } from "@effect/vitest"
import type { RawResponse } from "./RawClient.js"

export const traceIdPattern = /^[0-9a-f]{32}$/

/** One header's value as a single string (Node gives arrays for repeated ones). */
export const header = (res: RawResponse, name: string): string | undefined => {
  const value = res.headers[name.toLowerCase()]
  return Array.isArray(value) ? value.join(", ") : value
}

/** The headers every response carries, success or error. */
export const expectEnvelopeHeaders = (res: RawResponse) => {
  expect(header(res, "cache-control"), "Cache-Control").toBe("no-store")
  expect(header(res, "x-content-type-options"), "X-Content-Type-Options").toBe("nosniff")
  expect(header(res, "x-trace-id"), "X-Trace-Id").toMatch(traceIdPattern)
}

/** An error envelope: exact status and error_code, `{code,message,error_code,trace_id}`, no `data`. */
export const expectError = (res: RawResponse, status: number, errorCode: string) => {
  expect({ status: res.status, error_code: res.json?.error_code }, res.text).toEqual({ status, error_code: errorCode })
  expectEnvelopeHeaders(res)
  expect(header(res, "content-type")).toMatch(/^application\/json\b/)
  expect(Object.keys(res.json).sort()).toEqual(["code", "error_code", "message", "trace_id"])
  expect(res.json.code).toBe(status)
  expect(typeof res.json.message).toBe("string")
  expect(res.json.message.length).toBeGreaterThan(0)
  expect(res.json.trace_id).toBe(header(res, "x-trace-id"))
}

/** A success envelope `{code: 0, message: "", data}`; returns `data`. */
export const expectOk = (res: RawResponse): any => {
  expect(res.status, res.text).toBe(200)
  expectEnvelopeHeaders(res)
  expect(header(res, "content-type")).toMatch(/^application\/json\b/)
  expect(Object.keys(res.json).sort()).toEqual(["code", "data", "message"])
  expect(res.json.code).toBe(0)
  expect(res.json.message).toBe("")
  return res.json.data
}
