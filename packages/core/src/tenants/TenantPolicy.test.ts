import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { enabledConfirmationRule, tenantName } from "./TenantPolicy.js"

describe("tenantName", () => {
  it.effect("keeps a name of 1 to 200 characters, trimmed", () =>
    Effect.gen(function*() {
      expect(yield* tenantName("  acme  ")).toBe("acme")
      expect(yield* tenantName("a".repeat(200))).toBe("a".repeat(200))
    }))

  it.effect("refuses an empty name and one of 201 characters", () =>
    Effect.gen(function*() {
      const empty = yield* Effect.flip(tenantName("   "))
      expect(empty.reason).toBe("a tenant's name must not be empty")
      const long = yield* Effect.flip(tenantName("a".repeat(201)))
      expect(long.reason).toBe("a tenant's name must be at most 200 characters")
    }))
})

describe("enabledConfirmationRule", () => {
  it.effect("accepts only an enabled rule", () =>
    Effect.gen(function*() {
      expect(yield* enabledConfirmationRule("block_6", ["block_6", "solidified"])).toBe("block_6")
      const disabled = yield* Effect.flip(enabledConfirmationRule("block_1", ["block_6", "solidified"]))
      expect(disabled.reason).toBe("the confirmation rule must be one of the enabled rules: block_6, solidified")
      const unknown = yield* Effect.flip(enabledConfirmationRule("block_2", ["block_6"]))
      expect(unknown._tag).toBe("TenantRejected")
    }))
})
