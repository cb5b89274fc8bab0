// What a webhook carries once opened: the core's own schemas of the two bodies, so the server
// that builds them and the receivers that read them (the SDK) share one definition.
export { DepositRecord, SweepResultBody } from "@collector/core"
