// TENANT CODE. One signed request written out by hand with node:crypto, to show what the SDK
// does for every request (docs/authentication.md). Tenants on Node.js use the SDK (client.js);
// this is the recipe for any other language, checked here against a real server.
import { createHash, createHmac } from "node:crypto"

const tokenPath = "/open/v1/auth/token"

/**
 * canonical = METHOD \n PATH \n X-App-Id \n X-Timestamp \n ACCESS_TOKEN \n CANONICAL_QUERY \n hex(SHA-256(body))
 * X-Sign    = hex(HMAC-SHA256(key = UTF-8 of app_secret, data = canonical))
 */
export const signRequest = ({ method, path, appId, appSecret, accessToken = "", canonicalQuery = "", body = "", timestamp }) => {
  const bodyHash = createHash("sha256").update(body).digest("hex")
  const canonical = [method, path, appId, timestamp, accessToken, canonicalQuery, bodyHash].join("\n")
  return createHmac("sha256", Buffer.from(appSecret, "utf8")).update(canonical, "utf8").digest("hex")
}

/**
 * POST /open/v1/auth/token, signed with an empty access token and an empty body. Answers the
 * token's `data`: { access_token, token_type: "Bearer", expires_in, expires_at }.
 */
export const requestAccessToken = async ({ baseUrl, appId, appSecret }) => {
  // Unix seconds; the server accepts 300 s of clock difference.
  const timestamp = String(Math.floor(Date.now() / 1000))
  const sign = signRequest({ method: "POST", path: tokenPath, appId, appSecret, timestamp })
  const response = await fetch(`${baseUrl}${tokenPath}`, {
    method: "POST",
    headers: { "x-app-id": appId, "x-timestamp": timestamp, "x-sign": sign }
  })
  const envelope = await response.json()
  // Every answer is the contract's envelope: code 0 with `data`, or an error code and message.
  if (response.status !== 200 || envelope.code !== 0) {
    throw new Error(`token request refused: HTTP ${response.status} ${envelope.error_code ?? envelope.code} ${envelope.message}`)
  }
  return envelope.data
}
