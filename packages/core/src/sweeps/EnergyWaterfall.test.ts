import { describe, expect, it } from "@effect/vitest"
import { chooseEnergyPath, type WaterfallInput } from "./EnergyWaterfall.js"

/**
 * The waterfall with hand-written expectations: a transfer needing 70,714 energy (64,285 with
 * the 10% margin) at 100 SUN per energy; the wallet holds 10 TRX unless a row says otherwise.
 */
const base: WaterfallInput = {
  energyNeeded: 70_714n,
  energyLeft: 0n,
  activated: true,
  walletTrx: 10_000_000n,
  energyFee: 100n,
  stake: { available: 10_000_000_000n, needed: 7_072_000_000n },
  rental: { _tag: "Quoted", cost: 3_000_000n, provider: "cheap" },
  maxWalletTrxFee: 8_000_000n,
  whenStakeShort: "rent"
}
const short = { available: 1_000_000_000n, needed: 7_072_000_000n }

describe("the energy waterfall", () => {
  const rows: ReadonlyArray<readonly [string, Partial<WaterfallInput>, string]> = [
    ["own energy enough", { energyLeft: 70_714n }, "own"],
    ["own energy short by one, stake there", { energyLeft: 70_713n }, "delegated"],
    ["no resource account: the wallet's TRX, within the cap, before the provider", { stake: null }, "burn"],
    ["no resource account, burn above the cap: the provider", { stake: null, maxWalletTrxFee: 7_071_399n }, "rented"],
    ["no resource account, too little TRX: the provider", { stake: null, walletTrx: 7_071_399n }, "rented"],
    ["no resource account, no rental: burn within the cap", { stake: null, rental: null }, "burn"],
    ["no account, rental refused, burn above the cap", { stake: null, rental: { _tag: "Refused", reason: "too dear" }, maxWalletTrxFee: 7_000_000n }, "Unpayable"],
    ["no account, no rental, too little TRX", { stake: null, rental: null, walletTrx: 7_071_399n }, "Unpayable"],
    ["no account, no rental, exactly the TRX", { stake: null, rental: null, walletTrx: 7_071_400n }, "burn"],
    ["stake short, policy rent", { stake: short, walletTrx: 0n }, "rented"],
    ["stake short, policy rent, no rental", { stake: short, rental: null, walletTrx: 0n }, "Unpayable"],
    ["stake short, policy burn", { stake: short, whenStakeShort: "burn" }, "burn"],
    ["stake short, policy wait", { stake: short, whenStakeShort: "wait" }, "Wait"],
    ["stake exactly enough", { stake: { available: 7_072_000_000n, needed: 7_072_000_000n } }, "delegated"],
    ["inactive wallet: never delegated, rented (the provider activates)", { activated: false }, "rented"],
    ["inactive wallet, no rental: unpayable, never burned", { activated: false, rental: null }, "Unpayable"]
  ]
  for (const [name, change, expected] of rows) {
    it(name, () => {
      const choice = chooseEnergyPath({ ...base, ...change })
      expect(choice._tag === "Pay" ? choice.path : choice._tag).toBe(expected)
    })
  }

  it("says why, with the figures", () => {
    expect(chooseEnergyPath(base)).toEqual({ _tag: "Pay", path: "delegated", reason: "lending 7072000000 SUN of the own stake for 70714 energy (10000000000 SUN can be lent)" })
    expect(chooseEnergyPath({ ...base, stake: short, whenStakeShort: "burn" })).toEqual({
      _tag: "Pay",
      path: "burn",
      reason: "the own stake can lend 1000000000 SUN, the transfer needs 7072000000 SUN; burning 7071400 SUN of the wallet's TRX, within max_wallet_trx_fee 8000000"
    })
    expect(chooseEnergyPath({ ...base, stake: short, whenStakeShort: "wait" })).toEqual({
      _tag: "Wait",
      reason: "the own stake can lend 1000000000 SUN, the transfer needs 7072000000 SUN: waiting for it, as the tenant's policy says"
    })
  })
})
