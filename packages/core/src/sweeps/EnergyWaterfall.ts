/**
 * The order a sweep's energy is paid in: the wallet's own energy, then energy lent from the
 * operator's own stake (it becomes the wallet's own resource), then the wallet's TRX burned for
 * the whole shortfall within max_wallet_trx_fee, then the cheapest healthy provider's rental.
 * The tenant contract fixes own resources, then wallet TRX, then rental; the stake sits with the
 * wallet's resources because that is what lent energy is on chain. Every answer carries the
 * reason a tenant reads on the task and in the estimate.
 */
export type EnergyPath = "own" | "delegated" | "rented" | "burn"

/** What a tenant wants when the own stake cannot cover a sweep: wait for it, rent, or burn. */
export type StakeShortPolicy = "wait" | "rent" | "burn"

export interface WaterfallInput {
  /** Energy the transfer needs (the estimate with its margin). */
  readonly energyNeeded: bigint
  readonly energyLeft: bigint
  readonly activated: boolean
  readonly walletTrx: bigint
  /** SUN per energy unit burned. */
  readonly energyFee: bigint
  /** None without a resource account; otherwise the SUN it may lend now and the SUN the shortfall needs. */
  readonly stake: { readonly available: bigint; readonly needed: bigint } | null
  /** The cheapest healthy provider's answer, already held to max_rental_cost; null when rental is not allowed. */
  readonly rental: { readonly _tag: "Quoted"; readonly cost: bigint; readonly provider: string } | { readonly _tag: "Refused"; readonly reason: string } | null
  readonly maxWalletTrxFee: bigint
  readonly whenStakeShort: StakeShortPolicy
}

export type WaterfallChoice =
  | { readonly _tag: "Pay"; readonly path: EnergyPath; readonly reason: string }
  | { readonly _tag: "Wait"; readonly reason: string }
  | { readonly _tag: "Unpayable"; readonly reason: string }

const pay = (path: EnergyPath, reason: string): WaterfallChoice => ({ _tag: "Pay", path, reason })

/** The first path, taken whenever an activated wallet's energy covers what is needed: nothing else is looked at. */
export const payWithOwnEnergy = (energyNeeded: bigint): WaterfallChoice => pay("own", `the wallet's own energy covers the ${energyNeeded} needed`)

export const chooseEnergyPath = (input: WaterfallInput): WaterfallChoice => {
  const shortfall = input.energyNeeded - (input.energyLeft > 0n ? input.energyLeft : 0n)
  if (input.activated && shortfall <= 0n) return payWithOwnEnergy(input.energyNeeded)
  const burnFee = (shortfall > 0n ? shortfall : input.energyNeeded) * input.energyFee
  const burn = (): WaterfallChoice | undefined => {
    if (!input.activated) return undefined
    if (burnFee > input.maxWalletTrxFee) return undefined
    if (input.walletTrx < burnFee) return undefined
    return pay("burn", `burning ${burnFee} SUN of the wallet's TRX, within max_wallet_trx_fee ${input.maxWalletTrxFee}`)
  }
  const burnRefusal = () =>
    !input.activated
      ? "the wallet is not activated on chain"
      : burnFee > input.maxWalletTrxFee
      ? `burning would cost ${burnFee} SUN, above max_wallet_trx_fee ${input.maxWalletTrxFee}`
      : `burning would cost ${burnFee} SUN and the wallet holds ${input.walletTrx}`
  const rent = (): WaterfallChoice | undefined =>
    input.rental?._tag === "Quoted" ? pay("rented", `renting ${shortfall > 0n ? shortfall : input.energyNeeded} energy from "${input.rental.provider}" for ${input.rental.cost} SUN, the cheapest healthy quote within max_rental_cost`) : undefined
  const rentRefusal = () => input.rental === null ? "energy rental is not allowed" : input.rental._tag === "Refused" ? input.rental.reason : ""

  // Delegation needs an activated receiver: java-tron refuses to delegate to an account not on chain.
  if (input.stake !== null && input.activated) {
    if (input.stake.available >= input.stake.needed) {
      return pay("delegated", `lending ${input.stake.needed} SUN of the own stake for ${shortfall} energy (${input.stake.available} SUN can be lent)`)
    }
    const short = `the own stake can lend ${input.stake.available} SUN, the transfer needs ${input.stake.needed} SUN`
    switch (input.whenStakeShort) {
      case "wait":
        return { _tag: "Wait", reason: `${short}: waiting for it, as the tenant's policy says` }
      case "rent": {
        const rented = rent()
        if (rented !== undefined) return { ...rented, reason: `${short}; ${rented.reason}` } as WaterfallChoice
        return { _tag: "Unpayable", reason: `${short}, and the rental the tenant's policy asks for is not possible: ${rentRefusal()}` }
      }
      case "burn": {
        const burned = burn()
        if (burned !== undefined) return { ...burned, reason: `${short}; ${burned.reason}` } as WaterfallChoice
        return { _tag: "Unpayable", reason: `${short}, and ${burnRefusal()}` }
      }
    }
  }
  const burned = burn()
  if (burned !== undefined) return burned
  const rented = rent()
  if (rented !== undefined) return rented
  return { _tag: "Unpayable", reason: `no way to pay ${shortfall > 0n ? shortfall : input.energyNeeded} energy: ${rentRefusal()}; ${burnRefusal()}` }
}
