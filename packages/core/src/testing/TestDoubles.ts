// The test doubles that load no test runner, as their own entry (`@collector/core/test-doubles`):
// the `testing` entry's contract suites import vitest, so a kit that must also run under node:test
// and jest (@collector/testkit) takes these from here instead of keeping copies.
export * from "./EagerLoopSettings.js"
export * from "./TestDeliveryTransport.js"
