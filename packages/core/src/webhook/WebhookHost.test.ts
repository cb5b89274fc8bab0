import { describe, expect, it } from "@effect/vitest"
import { webhookHost } from "./WebhookHost.js"

describe("webhookHost: what a log line may say of a webhook URL", () => {
  it.each([
    ["https://hooks.example.com/t/SECRET-TOKEN?key=SECRET", "hooks.example.com"],
    ["https://hooks.example.com:8443/x", "hooks.example.com:8443"],
    ["https://user:SECRET@hooks.example.com/", "hooks.example.com"],
    ["https://[2001:db8::1]/SECRET", "[2001:db8::1]"],
    ["not a url SECRET", "(not a URL)"]
  ])("%s → %s", (url, host) => {
    expect(webhookHost(url)).toBe(host)
  })
})
