import { type Kernel, Sweeps } from "@collector/core"
import { TronAddress } from "@collector/tron"
import { Option } from "effect"

/**
 * How a simulated TRON network is set up. The defaults are the figures of the real networks
 * in late 2026 (the fee figures are the core's `mainnetFees`); tests override single fields.
 */

/** The governance-controlled figures `getchainparameters` reports; the control surface changes some. */
export interface SimParameters {
  /** SUN per energy unit (`getEnergyFee`). */
  readonly energyFee: bigint
  /** SUN per bandwidth byte burned (`getTransactionFee`). */
  readonly transactionFee: bigint
  /** Free bandwidth per activated account per day (`getFreeNetLimit`). */
  readonly freeNetLimit: bigint
  /** Burned for the bandwidth of an account-creating transfer when the sender has no staked bandwidth (`getCreateAccountFee`). */
  readonly createAccountFee: bigint
  /** Charged by the TransferContract that creates an account (`getCreateNewAccountFeeInSystemContract`). */
  readonly createNewAccountFeeInSystemContract: bigint
  /** Upper bound of a transaction's fee_limit (`getMaxFeeLimit`). */
  readonly maxFeeLimit: bigint
  /** Network energy per day and total staked TRX for energy: together the energy one staked TRX yields. */
  readonly totalEnergyLimit: bigint
  readonly totalEnergyWeight: bigint
  readonly totalNetLimit: bigint
  readonly totalNetWeight: bigint
}

/** Energy of a USDT transfer. Totals include the dynamic-energy penalty, as receipts do. */
export interface TransferEnergy {
  /** Recipient already holds USDT (its balance slot is overwritten). */
  readonly toHolder: bigint
  /** Recipient's balance is zero (a fresh storage slot costs more). */
  readonly toEmpty: bigint
  /** The part of each total without the penalty (mainnet receipts: 64,285 total, 49,635 penalty). */
  readonly toHolderBase: bigint
  readonly toEmptyBase: bigint
  /** A transfer that reverts (the sender lacks the amount); not measured, an order of magnitude. */
  readonly reverted: bigint
  /** `balanceOf`, as the recorded constant calls report it. */
  readonly balanceOf: bigint
}

export interface GenesisAccount {
  /** Base58Check. */
  readonly address: string
  /** SUN; an account listed here is activated even with 0. */
  readonly trx?: bigint
  readonly usdt?: bigint
  /**
   * Energy delegated to the account from genesis on, as if an outside address had staked for it:
   * stored as the staked SUN (`stakeForEnergy`), so the limit shown is at least this much.
   */
  readonly delegatedEnergy?: bigint
  /**
   * SUN the account itself has staked (Stake 2.0 `frozenV2`) from genesis on, on top of `trx`:
   * a resource account that can delegate at once, without a freeze transaction first.
   */
  readonly stakedForEnergy?: bigint
  readonly stakedForBandwidth?: bigint
}

export interface SimConfig {
  readonly network: Kernel.Network
  /** Base58Check address of the TRC20 USDT contract the simulator runs. */
  readonly usdtContract: string
  /**
   * Base58Check address of a second TRC20 token, so tests can check that a scanner ignores
   * Transfer logs of tokens other than USDT. Fixed, independent of seed and network.
   */
  readonly otherTokenContract: string
  /** Everything "random" (witness keys, system signatures) is derived from it: same seed, same chain. */
  readonly seed: string
  /** Number of the first block; real networks are far past zero. */
  readonly genesisNumber: bigint
  readonly blockIntervalMs: number
  /** Blocks between the head and the solidified block (19 distinct producers). */
  readonly solidifyDepth: number
  /** Built transactions expire this long after the head block's time (java-tron's default 60 s). */
  readonly expirationMs: number
  readonly parameters: SimParameters
  readonly transferEnergy: TransferEnergy
  /** `estimateenergy` is off unless a node operator enables it; tests switch it both ways. */
  readonly estimateEnergy: boolean
  readonly genesisAccounts: ReadonlyArray<GenesisAccount>
}

export const usdtContracts: Record<Kernel.Network, string> = {
  main: "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t",
  nile: "TXYZopYRdj2D9XRtbG411XZZ3kM5VkAeBf"
}

/**
 * The other token's default address: the last 20 bytes of sha256("tron-sim: another TRC20 token")
 * behind 41 (hex 41c2dda3e5461893f445a0f0bef17b80c37e302799). Made up on purpose, so it names no
 * real contract on any network; the same on every seed so tests and docs can spell it out.
 */
export const otherTokenContract = "TTjZc785R2A88G71nSv9KYagYw5U7GL6cE"

export const defaultParameters: SimParameters = {
  energyFee: Sweeps.mainnetFees.energyFee,
  transactionFee: 1000n,
  freeNetLimit: 600n,
  createAccountFee: 100_000n,
  createNewAccountFeeInSystemContract: 1_000_000n,
  maxFeeLimit: 15_000_000_000n,
  // 10 energy per staked TRX: round figures near mainnet's (~9.5).
  totalEnergyLimit: 180_000_000_000n,
  totalEnergyWeight: 18_000_000_000n,
  totalNetLimit: 43_200_000_000n,
  totalNetWeight: 26_856_723_239n
}

export const defaultTransferEnergy: TransferEnergy = {
  toHolder: Sweeps.mainnetFees.transferEnergy,
  toEmpty: Sweeps.mainnetFees.transferEnergyToEmpty,
  toHolderBase: 14_650n,
  toEmptyBase: 29_650n,
  reverted: 9_000n,
  balanceOf: 935n
}

export const defaultSimConfig = (network: Kernel.Network = "nile", overrides: Partial<SimConfig> = {}): SimConfig => ({
  network,
  usdtContract: usdtContracts[network],
  otherTokenContract,
  seed: "tron-sim",
  genesisNumber: 1_000_000n,
  blockIntervalMs: 3000,
  solidifyDepth: 19,
  expirationMs: 60_000,
  parameters: defaultParameters,
  transferEnergy: defaultTransferEnergy,
  estimateEnergy: true,
  genesisAccounts: [],
  ...overrides
})

/**
 * A contract address as 21-byte hex, remembered: every executed call asks for it, and decoding
 * Base58Check (two SHA-256) each time was the largest single cost of a busy simulator. Only the
 * configured contract addresses pass through here, so the map stays small.
 */
const contractHexes = new Map<string, string>()
const contractHex = (base58: string): string => {
  let hex = contractHexes.get(base58)
  if (hex === undefined) {
    hex = Option.getOrThrow(TronAddress.toHex(base58))
    contractHexes.set(base58, hex)
  }
  return hex
}

/** The USDT contract as 21-byte hex, the form transactions and state use. */
export const usdtHex = (config: Pick<SimConfig, "usdtContract">): string => contractHex(config.usdtContract)

/** The other token's contract as 21-byte hex. */
export const otherTokenHex = (config: Pick<SimConfig, "otherTokenContract">): string => contractHex(config.otherTokenContract)

/** Whether a 21-byte hex address is one of the contracts the simulator runs (USDT or the other token). */
export const isContract = (config: Pick<SimConfig, "usdtContract" | "otherTokenContract">, address: string): boolean => {
  const hex = address.toLowerCase()
  return hex === usdtHex(config) || hex === otherTokenHex(config)
}
