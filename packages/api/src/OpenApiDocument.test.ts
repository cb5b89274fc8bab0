import { Validator } from "@seriousme/openapi-schema-validator"
import { describe, expect, it } from "vitest"
import { readFileSync } from "node:fs"
import { resolve } from "node:path"
import { contractDocument } from "./OpenApiDocument.js"

const checkedIn = JSON.parse(readFileSync(resolve(import.meta.dirname, "../../../docs/openapi.json"), "utf8"))

const operations = (doc: { paths: Record<string, Record<string, unknown>> }) =>
  Object.entries(doc.paths).flatMap(([path, item]) => Object.keys(item).map((method) => `${method.toUpperCase()} ${path}`)).sort()

describe("contract document", () => {
  it("matches docs/openapi.json (run `npm run openapi` after changing the API)", () => {
    expect(contractDocument()).toEqual(checkedIn)
  })

  it("is valid OpenAPI 3.1 according to an independent validator", async () => {
    const validator = new Validator()
    const result = await validator.validate(structuredClone(contractDocument()) as unknown as Record<string, unknown>)
    expect(result.errors ?? []).toEqual([])
    expect(result.valid).toBe(true)
    expect(validator.version).toBe("3.1")
  })

  it("describes API version 6.0.0 with all 26 operations", () => {
    const doc = contractDocument()
    expect(doc.openapi).toBe("3.1.0")
    expect(doc.info.version).toBe("6.0.0")
    expect(operations(doc as never)).toEqual([
      "GET /healthz",
      "GET /open/v1/dashboard",
      "GET /open/v1/deposits",
      "GET /open/v1/deposits/{id}",
      "GET /open/v1/settings/addresses",
      "GET /open/v1/settings/automation",
      "GET /open/v1/settings/webhook",
      "GET /open/v1/sweeps",
      "GET /open/v1/sweeps/{id}",
      "GET /open/v1/wallets",
      "GET /open/v1/wallets/{id}",
      "GET /open/v1/webhooks",
      "GET /open/v1/webhooks/{id}",
      "GET /open/v1/webhooks/{id}/attempts",
      "GET /open/v1/webhooks/{id}/rounds",
      "GET /openapi.json",
      "POST /open/v1/auth/token",
      "POST /open/v1/settings/addresses/collection",
      "POST /open/v1/settings/automation",
      "POST /open/v1/settings/webhook",
      "POST /open/v1/sweeps",
      "POST /open/v1/sweeps/estimate",
      "POST /open/v1/wallets",
      "POST /open/v1/wallets/preview",
      "POST /open/v1/wallets/selection",
      "POST /open/v1/webhooks/{id}/redeliver"
    ])
    expect(operations(doc as never)).toHaveLength(26)
  })

  it("requires the signature headers and, past the token operation, the bearer token", () => {
    const doc = contractDocument() as unknown as { paths: Record<string, Record<string, { security: unknown }>>; components: { securitySchemes: Record<string, unknown> } }
    expect(Object.keys(doc.components.securitySchemes).sort()).toEqual(["AppId", "Bearer", "Sign", "Timestamp"])
    expect(doc.paths["/open/v1/auth/token"]!.post!.security).toEqual([{ AppId: [], Timestamp: [], Sign: [] }])
    expect(doc.paths["/open/v1/wallets"]!.post!.security).toEqual([{ AppId: [], Timestamp: [], Sign: [], Bearer: [] }])
    expect(doc.paths["/healthz"]!.get!.security).toEqual([])
  })

  it("documents every error status of the envelope on each business operation", () => {
    const doc = contractDocument() as unknown as { paths: Record<string, Record<string, { responses: Record<string, unknown> }>> }
    const statuses = Object.keys(doc.paths["/open/v1/wallets"]!.post!.responses).sort()
    expect(statuses).toEqual(["200", "400", "401", "403", "404", "405", "409", "413", "429", "500", "503", "504"])
  })
})
