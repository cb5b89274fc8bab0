/** A block as the scanner needs it: where it sits and what it builds on. */
export interface BlockRef {
  readonly number: bigint
  /** 64 lowercase hex characters (java-tron's blockID). */
  readonly hash: string
  readonly parentHash: string
  readonly timestamp: Date
}

/** One TRC20 Transfer log of the network's USDT contract in a successful receipt. */
export interface UsdtTransfer {
  readonly txid: string
  /** Position of the log within its transaction receipt. */
  readonly logIndex: number
  /** Base58Check addresses. */
  readonly from: string
  readonly to: string
  readonly amount: bigint
  readonly contract: string
}

export interface BlockTransfers {
  readonly block: BlockRef
  readonly transfers: ReadonlyArray<UsdtTransfer>
}

/** An account's energy and bandwidth at the head (they regenerate over 24 h); missing fields mean zero. */
export interface AccountResources {
  readonly energyLimit: bigint
  readonly energyUsed: bigint
  readonly freeBandwidthLimit: bigint
  readonly freeBandwidthUsed: bigint
  readonly stakedBandwidthLimit: bigint
  readonly stakedBandwidthUsed: bigint
}

/** What an account holds at the solidified block; missing fields on the node mean zero. */
export interface AccountBalances {
  readonly address: string
  /** False until the address has received TRX (or a TRC10 token). */
  readonly activated: boolean
  readonly trx: bigint
  readonly usdt: bigint
  /** The solidified block the balances are read at (at least this recent). */
  readonly atBlock: bigint
}

/** The TRX part of `AccountBalances`: what the solidified block says of the account's TRX. */
export type TrxBalance = Pick<AccountBalances, "activated" | "trx">

/** An account at the solidified block, with its resource figures at the head. */
export interface AccountState extends AccountResources, AccountBalances {}

export interface ChainParameters {
  /** SUN per energy unit (`getEnergyFee`). */
  readonly energyFee: bigint
  /** SUN per bandwidth byte (`getTransactionFee`). */
  readonly bandwidthFee: bigint
  readonly freeBandwidthPerDay: bigint
  /** SUN to create (activate) an account by a transfer (`getCreateNewAccountFeeInSystemContract` + `getCreateAccountFee`). */
  readonly activationFee: bigint
}

/** A transaction built by the node or locally, not yet signed. */
export interface UnsignedTransaction {
  readonly txid: string
  /** The exact protobuf bytes of raw_data, hex; the txid is their SHA-256. */
  readonly rawDataHex: string
  readonly expiration: Date
  readonly feeLimit: bigint
}

export interface SignedTransaction extends UnsignedTransaction {
  /** 65-byte r || s || v signatures, hex. */
  readonly signatures: ReadonlyArray<string>
}

export type BroadcastOutcome =
  | { readonly _tag: "Accepted" }
  /** The node already has it: as good as accepted. */
  | { readonly _tag: "Duplicate" }
  | { readonly _tag: "Rejected"; readonly code: string; readonly message: string }

export type ReceiptResult = "SUCCESS" | "OUT_OF_ENERGY" | "REVERT" | "OUT_OF_TIME" | "FAILED"

export interface Receipt {
  readonly txid: string
  readonly blockNumber: bigint
  readonly blockTime: Date
  readonly result: ReceiptResult
  /** Total SUN burned (energy plus bandwidth). */
  readonly fee: bigint
  readonly energyFee: bigint
  readonly energyUsage: bigint
  readonly bandwidthFee: bigint
  readonly bandwidthUsage: bigint
}

/** The network's energy per staked TRX, as `getaccountresource` prints it: TotalEnergyLimit / TotalEnergyWeight. */
export interface StakeTotals {
  readonly totalEnergyLimit: bigint
  readonly totalEnergyWeight: bigint
}

/** The resource a Stake 2.0 stake buys: energy for contract calls, bandwidth for transaction bytes. */
export type StakedResource = "ENERGY" | "BANDWIDTH"

/**
 * Stake 2.0: `owner` stakes (`freezebalancev2`) or starts unstaking (`unfreezebalancev2`)
 * `balance` SUN of its own TRX for `resource`.
 */
export interface OwnStake {
  readonly owner: string
  readonly balance: bigint
  readonly resource: StakedResource
}

/** SUN of an account's own energy stake (`getaccount`), at the head. */
export interface EnergyStake {
  /** Staked for energy in all: what it keeps (`frozenV2` ENERGY) and what it has lent out. */
  readonly staked: bigint
  /** Lent out to others in total (`delegated_frozenV2_balance_for_energy`). */
  readonly lent: bigint
}

/** Stake 2.0: `balance` SUN of `owner`'s TRX staked for energy, lent to `receiver` (no lock). */
export interface EnergyStakeLoan {
  readonly owner: string
  readonly receiver: string
  readonly balance: bigint
}
