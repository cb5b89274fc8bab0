import { OpenApi } from "@effect/platform"
import { ContractApi } from "./ContractApi.js"

const signatureSchemes = {
  AppId: { type: "apiKey", in: "header", name: "X-App-Id", description: "Canonical positive int64 app ID; selects the tenant and the network." },
  Timestamp: { type: "apiKey", in: "header", name: "X-Timestamp", description: "Unix seconds, canonical decimal, within 300 s of server time." },
  Sign: {
    type: "apiKey",
    in: "header",
    name: "X-Sign",
    description: "Lowercase hex HMAC-SHA256 (key: UTF-8 app_secret) of METHOD\\nPATH\\nX-App-Id\\nX-Timestamp\\nACCESS_TOKEN\\nCANONICAL_QUERY\\nhex(SHA-256(raw body))."
  },
  Bearer: { type: "http", scheme: "bearer", description: "Access token from POST /open/v1/auth/token (opaque, 7200 s)." }
} as const

type Operation = { security?: Array<Record<string, Array<string>>>; "x-idempotent"?: boolean }
type Document = ReturnType<typeof OpenApi.fromApi> & { components: { securitySchemes?: Record<string, unknown> } }

/**
 * The contract document, generated from the HttpApi definition. HttpApi security schemes are
 * alternatives (any one suffices) while ours must all be present at once, so the signature
 * headers and the bearer token are attached here as one combined requirement.
 */
export const contractDocument = (): Document => {
  const document = OpenApi.fromApi(ContractApi) as Document
  document.components.securitySchemes = { ...signatureSchemes }
  for (const [path, item] of Object.entries(document.paths)) {
    for (const operation of Object.values(item as Record<string, Operation>)) {
      if (path === "/open/v1/auth/token") operation.security = [{ AppId: [], Timestamp: [], Sign: [] }]
      else if (path.startsWith("/open/v1/")) operation.security = [{ AppId: [], Timestamp: [], Sign: [], Bearer: [] }]
      else operation.security = []
    }
  }
  return document
}
