import { describe, expect, it } from "@effect/vitest"
import { available, increased, recovered, windowMs } from "./ResourceWindow.js"

describe("ResourceWindow", () => {
  it("recovers usage linearly to zero over 24 hours", () => {
    expect(recovered(600n, 0, 0)).toBe(600n)
    expect(recovered(600n, 0, windowMs / 4)).toBe(450n)
    expect(recovered(600n, 0, windowMs / 2)).toBe(300n)
    expect(recovered(600n, 0, windowMs)).toBe(0n)
    expect(recovered(600n, 0, windowMs * 2)).toBe(0n)
  })

  it("adds new usage to what is left, and never reports a negative availability", () => {
    expect(increased(600n, 0, 345n, windowMs / 2)).toBe(645n)
    expect(available(600n, 645n, windowMs / 2, windowMs / 2)).toBe(0n)
    // 172.5 left in use rounds half up, as java-tron rounds.
    expect(available(600n, 345n, 0, windowMs / 2)).toBe(427n)
  })
})
