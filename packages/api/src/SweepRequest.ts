import { Kernel, type Sweeps } from "@collector/core"

import { Either } from "effect"
import { parsePaging } from "./WalletListQuery.js"

type Raw = Readonly<Record<string, string | undefined>>

const fail = (message: string) => Either.left(`invalid request: ${message}`)

/**
 * The rule between sweep_mode and amount that the body schema cannot state: `fixed` needs an
 * amount, `all` takes none (the schema has checked the IDs and the amount's form already).
 */
export const parseSweepRequest = (payload: {
  readonly wallet_ids: ReadonlyArray<string>
  readonly sweep_mode: "all" | "fixed"
  readonly amount?: string | undefined
}): Either.Either<Sweeps.SweepRequest, string> => {
  if (payload.sweep_mode === "fixed" && payload.amount === undefined) return fail("amount is required when sweep_mode is fixed")
  if (payload.sweep_mode === "all" && payload.amount !== undefined) return fail("amount must be absent when sweep_mode is all")
  return Either.right({
    walletIds: payload.wallet_ids as ReadonlyArray<Kernel.WalletId>,
    mode: payload.sweep_mode,
    amount: payload.amount === undefined ? null : BigInt(payload.amount)
  })
}

export const sweepStatuses: ReadonlyArray<Sweeps.SweepStatus> = ["pending", "ready", "signed", "broadcast", "unknown", "succeeded", "failed", "cancelled"]

const given = (raw: Raw, key: string) => (raw[key] === undefined || raw[key] === "" ? undefined : raw[key])

/**
 * The sweep list's query: the other lists' paging plus exact `status`, `wallet_id` and `txid`
 * filters, absent or empty meaning none (unknown keys are refused by the strict query schema).
 */
export const parseSweepListQuery = (raw: Raw): Either.Either<Sweeps.SweepQuery, string> =>
  Either.gen(function*() {
    const status = given(raw, "status")
    if (status !== undefined && !(sweepStatuses as ReadonlyArray<string>).includes(status)) {
      return yield* fail(`status must be one of ${sweepStatuses.join(", ")}`)
    }
    const walletId = given(raw, "wallet_id")
    if (walletId !== undefined && !Kernel.isCanonicalPositiveInt64(walletId)) return yield* fail("wallet_id must be a positive integer ID")
    const txid = given(raw, "txid")
    if (txid !== undefined && !/^[0-9a-f]{64}$/.test(txid)) return yield* fail("txid must be 64 lowercase hexadecimal characters")
    const { page, pageSize } = yield* parsePaging(raw)
    return {
      page,
      pageSize,
      ...(status === undefined ? {} : { status: status as Sweeps.SweepStatus }),
      ...(walletId === undefined ? {} : { walletId: walletId as Kernel.WalletId }),
      ...(txid === undefined ? {} : { txid })
    }
  })
