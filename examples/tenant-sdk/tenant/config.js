// TENANT CODE. Where the tenant's credentials come from: the environment, never the source.
// The operator hands them over once, when the tenant is created (`tenant create` prints them).

/** The value of `name`, or an error naming the variable when it is missing. */
const required = (env, name) => {
  const value = env[name]
  if (value === undefined || value.trim() === "") throw new Error(`${name} is required (see README.md)`)
  return value.trim()
}

/**
 * The API connection: COLLECTOR_URL (e.g. https://collector.example.com), COLLECTOR_APP_ID and
 * COLLECTOR_APP_SECRET. The app ID names both the tenant and the network (nile or main).
 */
export const apiConfigFromEnv = (env = process.env) => ({
  baseUrl: required(env, "COLLECTOR_URL").replace(/\/+$/, ""),
  appId: required(env, "COLLECTOR_APP_ID"),
  appSecret: required(env, "COLLECTOR_APP_SECRET")
})

/**
 * The receiver's settings, or undefined when COLLECTOR_WEBHOOK_KEY is not set: the webhook key
 * (base64 of 32 bytes), RECEIVER_PORT (default 8080), RECEIVER_HOST (default 0.0.0.0), and
 * optionally TLS_CERT_FILE / TLS_KEY_FILE to serve HTTPS itself (the service delivers to
 * https on port 443 only; without them, put the receiver behind a TLS-terminating proxy).
 */
export const receiverConfigFromEnv = (env = process.env) => {
  if (env.COLLECTOR_WEBHOOK_KEY === undefined || env.COLLECTOR_WEBHOOK_KEY === "") return undefined
  return {
    appId: required(env, "COLLECTOR_APP_ID"),
    webhookKey: required(env, "COLLECTOR_WEBHOOK_KEY"),
    port: Number(env.RECEIVER_PORT ?? "8080"),
    host: env.RECEIVER_HOST ?? "0.0.0.0",
    tlsCertFile: env.TLS_CERT_FILE,
    tlsKeyFile: env.TLS_KEY_FILE
  }
}
