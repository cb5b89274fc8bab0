import { describe, expect, it } from "@effect/vitest"
import * as HostTableLookup from "./HostTableLookup.js"

describe("HostTableLookup", () => {
  const lookup = HostTableLookup.make({
    "Example.Test": "93.184.216.34",
    "dual.test": ["93.184.216.34", "2606:2800:220:1:248:1893:25c8:1946"],
    "empty.test": []
  })

  it("answers every address of a name, with its family, matching names as DNS does", async () => {
    expect(await lookup("example.test")).toEqual([{ address: "93.184.216.34", family: 4 }])
    expect(await lookup("EXAMPLE.test.")).toEqual([{ address: "93.184.216.34", family: 4 }])
    expect(await lookup("dual.test")).toEqual([
      { address: "93.184.216.34", family: 4 },
      { address: "2606:2800:220:1:248:1893:25c8:1946", family: 6 }
    ])
  })

  it("fails like getaddrinfo for unknown names and names without addresses", async () => {
    await expect(lookup("none.test")).rejects.toMatchObject({ code: "ENOTFOUND", hostname: "none.test" })
    await expect(lookup("empty.test")).rejects.toMatchObject({ code: "ENOTFOUND" })
  })
})
