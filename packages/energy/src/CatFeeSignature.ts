import { createHmac } from "node:crypto"
import { Redacted } from "effect"

/**
 * CatFee's request signature (docs.catfee.io, "API Overview", sections 4-6): Base64 of
 * HMAC-SHA256, keyed with the API secret, over `timestamp + METHOD + requestPath`, where the
 * timestamp is ISO 8601 UTC with milliseconds (`2023-08-26T12:34:56.789Z`, also sent as
 * CF-ACCESS-TIMESTAMP) and requestPath is the path WITH its query string exactly as sent
 * (`/v1/order?quantity=65000&receiver=...&duration=1h`). The idempotency page says the query is
 * not signed; the overview, its worked example and every language example sign it, so we do.
 */

export const sign = (secret: string, timestamp: string, method: string, requestPath: string): string =>
  createHmac("sha256", secret).update(timestamp + method.toUpperCase() + requestPath, "utf8").digest("base64")

/** The headers of one signed request made at `at`. */
export const signedHeaders = (
  apiKey: Redacted.Redacted,
  apiSecret: Redacted.Redacted,
  at: Date,
  method: string,
  requestPath: string
): Record<string, string> => {
  const timestamp = at.toISOString()
  return {
    "Content-Type": "application/json",
    "CF-ACCESS-KEY": Redacted.value(apiKey),
    "CF-ACCESS-SIGN": sign(Redacted.value(apiSecret), timestamp, method, requestPath),
    "CF-ACCESS-TIMESTAMP": timestamp
  }
}
