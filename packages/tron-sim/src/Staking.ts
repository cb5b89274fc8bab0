import type { TransactionRaw } from "@collector/tron"
import { Either, Option } from "effect"
import { adjustBalance, type SimAccount, sunPerTrx } from "./SimAccount.js"
import { account, putAccount, type WorldState } from "./WorldState.js"

/**
 * Stake 2.0 staking, java-tron's FreezeBalanceV2Actuator and UnfreezeBalanceV2Actuator: TRX
 * moves from the balance into `frozenV2` for ENERGY or BANDWIDTH, and back out into an
 * `unfrozenV2` entry that may be withdrawn after the unfreeze delay. A Left is the
 * ContractValidateException text java-tron gives (addresses in it are hex, as its
 * StringUtil.createReadableString prints them).
 *
 * Left out, on purpose: TotalEnergyWeight stays the configured figure (java-tron adds each
 * stake to it; against mainnet's ~19 billion TRX a simulated stake would not move it, and a
 * fixed ratio keeps every limit predictable); TRON_POWER and votes; withdrawing expired
 * unfreezes (WithdrawExpireUnfreeze) and cancelling them; the share of energy usage java-tron
 * keeps on the remaining stake when part of it is unfrozen.
 */

/** java-tron's getUnfreezeDelayDays on mainnet and nile: 14 days. */
export const unfreezeDelayMs = 14 * 24 * 60 * 60 * 1000

/** java-tron's UNFREEZE_MAX_TIMES: at most this many unfreezes may be pending at once. */
export const maxUnfreezing = 32

export type StakeResource = "BANDWIDTH" | "ENERGY"

/**
 * The resource a contract names (absent is BANDWIDTH, protobuf's default). TRON_POWER is
 * refused because the simulator has no votes; java-tron with the new resource model would
 * list it as valid too, so the text here is the one without it (an assumption).
 */
export const stakeResource = (resource: TransactionRaw.ResourceCode | undefined): Either.Either<StakeResource, string> =>
  resource === undefined || resource === "BANDWIDTH" || resource === "ENERGY"
    ? Either.right(resource ?? "BANDWIDTH")
    : Either.left("ResourceCode error, valid ResourceCode[BANDWIDTH、ENERGY]")

export const existing = (world: WorldState, address: string, verb: "not exists" | "does not exist"): Either.Either<SimAccount, string> =>
  Option.match(account(world, address), { onNone: () => Either.left(`Account[${address}] ${verb}`), onSome: Either.right })

export const frozenOf = (owner: SimAccount, resource: StakeResource): bigint =>
  resource === "ENERGY" ? owner.frozenEnergy : owner.frozenBandwidth

const withFrozen = (owner: SimAccount, resource: StakeResource, delta: bigint): SimAccount =>
  resource === "ENERGY" ? { ...owner, frozenEnergy: owner.frozenEnergy + delta } : { ...owner, frozenBandwidth: owner.frozenBandwidth + delta }

export const freezeV2 = (world: WorldState, value: TransactionRaw.FreezeBalanceV2Contract): Either.Either<WorldState, string> =>
  Either.gen(function*() {
    const address = value.owner_address.toLowerCase()
    const owner = yield* existing(world, address, "not exists")
    const amount = BigInt(value.frozen_balance ?? 0)
    if (amount <= 0n) return yield* Either.left("frozenBalance must be positive")
    if (amount < sunPerTrx) return yield* Either.left("frozenBalance must be greater than or equal to 1 TRX")
    if (amount > owner.balance) return yield* Either.left("frozenBalance must be less than or equal to accountBalance")
    const resource = yield* stakeResource(value.resource)
    return putAccount(world, withFrozen(adjustBalance(owner, -amount), resource, amount))
  })

export const unfreezeV2 = (world: WorldState, value: TransactionRaw.UnfreezeBalanceV2Contract, now: number): Either.Either<WorldState, string> =>
  Either.gen(function*() {
    const address = value.owner_address.toLowerCase()
    const owner = yield* existing(world, address, "does not exist")
    const resource = yield* stakeResource(value.resource)
    const frozen = frozenOf(owner, resource)
    if (frozen <= 0n) return yield* Either.left(`no frozenBalance(${resource === "ENERGY" ? "Energy" : "BANDWIDTH"})`)
    const amount = BigInt(value.unfreeze_balance ?? 0)
    if (amount <= 0n || amount > frozen) return yield* Either.left(`Invalid unfreeze_balance, [${amount}] is error`)
    if (owner.unfrozen.filter((entry) => entry.expireTime > now).length >= maxUnfreezing) {
      return yield* Either.left("Invalid unfreeze operation, unfreezing times is over limit")
    }
    const entry = { resource, amount, expireTime: now + unfreezeDelayMs }
    return putAccount(world, { ...withFrozen(owner, resource, -amount), unfrozen: [...owner.unfrozen, entry] })
  })
