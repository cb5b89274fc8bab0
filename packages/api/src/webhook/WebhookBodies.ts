// What a webhook carries once opened: the core's own schemas of the two bodies, so the server
// that builds them and the receivers that read them (the SDK) share one definition.
import { Deposits, Sweeps } from "@collector/core"

export const DepositRecord = Deposits.DepositRecord
export type DepositRecord = Deposits.DepositRecord
export const SweepResultBody = Sweeps.SweepResultBody
export type SweepResultBody = Sweeps.SweepResultBody
