import { describe, expect, it } from "@effect/vitest"
import { describeStartFailure, portSettings } from "./launch.js"

// A listen failure as Node reports it, wrapped as our servers wrap it (the simulated node's error
// keeps the system error as its cause).
const taken = (port: number) => ({
  _tag: "SimServerError",
  message: `cannot listen on 127.0.0.1:${port}: listen EADDRINUSE: address already in use 127.0.0.1:${port}`,
  cause: { code: "EADDRINUSE", address: "127.0.0.1", port, message: "listen EADDRINUSE" }
})

describe("describeStartFailure", () => {
  const ports = { PORT: 8080, OPERATOR_PORT: 9464, TRON_SIM_PORT: 8090 }

  it("a taken port names the variable that sets it, at its default or as set", () => {
    expect(describeStartFailure(taken(8090), portSettings(ports, {}))).toBe(
      "cannot listen on 127.0.0.1:8090: the port is in use by another process (set TRON_SIM_PORT to another port)"
    )
    expect(describeStartFailure(taken(18080), portSettings(ports, { PORT: "18080" }))).toContain("(set PORT to another port)")
    // Moved away from its default, 9464 is no longer the operator's port.
    expect(describeStartFailure(taken(9464), portSettings(ports, { OPERATOR_PORT: "19464" }))).toContain("(set another port)")
  })

  it("a port no setting names, or no ports given, still says what happened", () => {
    expect(describeStartFailure(taken(7000), portSettings(ports, {}))).toBe(
      "cannot listen on 127.0.0.1:7000: the port is in use by another process (set another port)"
    )
    expect(describeStartFailure(taken(8090))).toContain("the port is in use by another process (set another port)")
  })
})
