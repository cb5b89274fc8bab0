import { describe, expect, it } from "vitest"
import { signatureHeaders } from "./SignatureHeaders.js"

// Expected X-Sign values computed outside this code, with the shell:
//   printf 'POST\n/open/v1/wallets\napp_1\n1700000000\ntok\na=1&b=2\n<sha256 hex of {"x":1}>' | openssl dgst -sha256 -hmac sekrit
const app = { appId: "app_1", secret: "sekrit" }

describe("signatureHeaders", () => {
  it("signs the canonical query, the bearer token and the body, and sends the bearer", () => {
    const headers = signatureHeaders(app, { method: "post", target: "/open/v1/wallets?b=2&a=1", token: "tok", body: "{\"x\":1}", timestamp: "1700000000" })
    expect(headers).toEqual([
      ["x-app-id", "app_1"],
      ["x-timestamp", "1700000000"],
      ["x-sign", "1e7adf116f1f0e8f3165c1278d8d3ff85507ce08d52795e4e89a8749b9bf7543"],
      ["authorization", "Bearer tok"]
    ])
  })

  it("sends no bearer for the token operation and signs an empty token and body", () => {
    const headers = signatureHeaders(app, { method: "GET", target: "/open/v1/auth/token", timestamp: "1700000000" })
    expect(headers).toEqual([
      ["x-app-id", "app_1"],
      ["x-timestamp", "1700000000"],
      ["x-sign", "e429785164dc186fbe43b236e5ccaf2bba1110a98e3c00bc46510e6c1d94a79d"]
    ])
  })
})
