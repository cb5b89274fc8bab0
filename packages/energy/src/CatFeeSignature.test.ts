import { describe, expect, it } from "@effect/vitest"
import { Redacted } from "effect"
import { sign, signedHeaders } from "./CatFeeSignature.js"

// Computed outside this code with `openssl dgst -sha256 -hmac your_api_secret -binary | base64`
// over the string the documentation's worked example builds (timestamp + method + requestPath).
describe("CatFee signature", () => {
  it("is Base64 of HMAC-SHA256 over timestamp + METHOD + path with its query", () => {
    expect(sign("your_api_secret", "2023-08-26T12:34:56.789Z", "POST", "/v1/order?quantity=65000&receiver=TRON_ADDRESS&duration=1h")).toBe(
      "YGUEHUn06m0HfsE2rCz5SapoQwlT1SAZFSzdVCes0S8="
    )
    expect(sign("your_api_secret", "2023-08-26T12:34:56.789Z", "get", "/v1/order/abc123")).toBe("VyGh5FA7/GLyCo7lqeT4RZ2sZFbShB2vZxI4SE4sjQ4=")
  })

  it("sends the key, the signature and the ISO 8601 timestamp with milliseconds", () => {
    const headers = signedHeaders(Redacted.make("key-1"), Redacted.make("your_api_secret"), new Date("2023-08-26T12:34:56.789Z"), "GET", "/v1/order/abc123")
    expect(headers).toEqual({
      "Content-Type": "application/json",
      "CF-ACCESS-KEY": "key-1",
      "CF-ACCESS-SIGN": "VyGh5FA7/GLyCo7lqeT4RZ2sZFbShB2vZxI4SE4sjQ4=",
      "CF-ACCESS-TIMESTAMP": "2023-08-26T12:34:56.789Z"
    })
  })
})
