import { describe, expect, it } from "@effect/vitest"
import { ConfigProvider, Effect, Either } from "effect"
import { testCaFile, testCaPem } from "./testing/TestReceiver.js"
import { webhookDeliveryConfig } from "./WebhookDeliveryConfig.js"

const read = (env: Record<string, string>) =>
  Effect.runPromise(Effect.either(Effect.withConfigProvider(webhookDeliveryConfig, ConfigProvider.fromMap(new Map(Object.entries(env))))))

describe("webhookDeliveryConfig", () => {
  it("is off and without an extra CA by default", async () => {
    expect(Either.getOrThrow(await read({}))).toEqual({ allowPrivateTargets: false })
  })

  it("reads the extra CA file", async () => {
    expect(Either.getOrThrow(await read({ WEBHOOK_ALLOW_PRIVATE_TARGETS: "true", WEBHOOK_EXTRA_CA_FILE: testCaFile })))
      .toEqual({ allowPrivateTargets: true, extraCa: testCaPem })
  })

  it("names the variable when the file is missing or holds no certificate", async () => {
    const missing = await read({ WEBHOOK_EXTRA_CA_FILE: "/nonexistent/ca.pem" })
    expect(Either.isLeft(missing) && String(missing.left)).toContain("WEBHOOK_EXTRA_CA_FILE /nonexistent/ca.pem could not be read (ENOENT)")
    const notPem = await read({ WEBHOOK_EXTRA_CA_FILE: import.meta.filename })
    expect(Either.isLeft(notPem) && String(notPem.left)).toContain("holds no PEM certificate")
    const notBoolean = await read({ WEBHOOK_ALLOW_PRIVATE_TARGETS: "maybe" })
    expect(Either.isLeft(notBoolean) && String(notBoolean.left)).toContain("WEBHOOK_ALLOW_PRIVATE_TARGETS must be true or false")
  })
})
