import { Context, type Effect, type Option } from "effect"
import type { BlockNotFound, ChainRejected, ChainUnavailable } from "./ChainErrors.js"
import type {
  AccountBalances,
  AccountResources,
  AccountState,
  BlockRef,
  BlockTransfers,
  BroadcastOutcome,
  ChainParameters,
  EnergyStake,
  EnergyStakeLoan,
  OwnStake,
  Receipt,
  SignedTransaction,
  StakeTotals,
  TrxBalance,
  UnsignedTransaction
} from "./ChainModel.js"

type Failure = ChainUnavailable | ChainRejected

/**
 * Port: one TRON network as the service needs it, in domain terms. An adapter talks to a
 * java-tron node (or TronGrid); the simulated node speaks the same HTTP API.
 */
export interface ChainService {
  readonly headBlock: Effect.Effect<BlockRef, Failure>
  readonly solidifiedBlock: Effect.Effect<BlockRef, Failure>
  /** The block's USDT Transfer logs from successful receipts: one or two node calls per block. */
  readonly blockTransfers: (number: bigint) => Effect.Effect<BlockTransfers, Failure | BlockNotFound>
  /**
   * Balances at the solidified block and resources at the head. `solidified`, a solidified block
   * number read before this call (once for a batch of reads, say), stands for the block the
   * balances are at least as recent as; without it the adapter reads that number itself.
   */
  readonly account: (address: string, solidified?: bigint) => Effect.Effect<AccountState, Failure>
  /** Only the balances of `account`, at least as recent as the solidified block `solidified` (read before). */
  readonly balances: (address: string, solidified: bigint) => Effect.Effect<AccountBalances, Failure>
  /** Only the USDT balance of `balances`, at the solidified block, in one node call. */
  readonly usdtBalance: (address: string) => Effect.Effect<bigint, Failure>
  /** Only the TRX balance and activation of `balances`, at the solidified block, in one node call. */
  readonly trxBalance: (address: string) => Effect.Effect<TrxBalance, Failure>
  /** Only the energy and bandwidth figures of `account`, in one node call. */
  readonly resources: (address: string) => Effect.Effect<AccountResources, Failure>
  readonly parameters: Effect.Effect<ChainParameters, Failure>
  /**
   * Whether the USDT contract's issuer has frozen `address` (Tether's `isBlackListed`), at the
   * head: a frozen address's transfers revert, so nothing should be rented or signed for it.
   */
  readonly isBlackListed: (address: string) => Effect.Effect<boolean, Failure>
  /** Energy a USDT transfer of `amount` from `from` to `to` would use now. */
  readonly estimateTransferEnergy: (transfer: { readonly from: string; readonly to: string; readonly amount: bigint }) => Effect.Effect<bigint, Failure>
  /**
   * Expires when the node decides (60 s after its head by default) unless `expiration` is given.
   * With `expiration` and `reference` (a recent block of the canonical chain, which the
   * transaction names for TaPoS), the adapter builds the transaction itself, with no node call.
   */
  readonly buildUsdtTransfer: (
    transfer: {
      readonly from: string
      readonly to: string
      readonly amount: bigint
      readonly feeLimit: bigint
      readonly expiration?: Date
      readonly reference?: BlockRef
    }
  ) => Effect.Effect<UnsignedTransaction, Failure>
  readonly broadcast: (transaction: SignedTransaction) => Effect.Effect<BroadcastOutcome, ChainUnavailable>
  /** None while the transaction is unknown to the (solidified) node. */
  readonly receipt: (txid: string) => Effect.Effect<Option.Option<Receipt>, Failure>
  /** The network's energy per staked TRX, read at the head through `address`'s resource figures. */
  readonly stakeTotals: (address: string) => Effect.Effect<StakeTotals, Failure>
  /** `owner`'s own energy stake and how much of it is lent out; zeros for an unknown account. */
  readonly energyStake: (owner: string) => Effect.Effect<EnergyStake, Failure>
  /** SUN of `owner`'s energy stake it may delegate now (`getcandelegatedmaxsize`); 0 for an unknown account. */
  readonly delegatableEnergyStake: (owner: string) => Effect.Effect<bigint, Failure>
  /** SUN of `owner`'s energy stake currently lent to `receiver`, at the head (`getdelegatedresourcev2`); 0 when none. */
  readonly lentEnergyStake: (loan: { readonly owner: string; readonly receiver: string }) => Effect.Effect<bigint, Failure>
  /**
   * Builds the transaction lending (`delegateresource`, no lock) or taking back
   * (`undelegateresource`) `loan.balance` SUN of energy stake. With `expiration` the node's
   * transaction is re-stamped to expire then (which changes its txid).
   */
  readonly buildEnergyLoan: (loan: EnergyStakeLoan, expiration?: Date) => Effect.Effect<UnsignedTransaction, Failure>
  readonly buildEnergyReclaim: (loan: EnergyStakeLoan, expiration?: Date) => Effect.Effect<UnsignedTransaction, Failure>
  /** Builds the transaction staking `stake.balance` SUN of the owner's TRX (`freezebalancev2`). */
  readonly buildStake: (stake: OwnStake) => Effect.Effect<UnsignedTransaction, Failure>
  /**
   * Builds the transaction starting to unstake `stake.balance` SUN (`unfreezebalancev2`); the
   * TRX comes back to the balance only after the network's unfreeze delay (and a withdrawal).
   */
  readonly buildUnstake: (stake: OwnStake) => Effect.Effect<UnsignedTransaction, Failure>
}

export class Chain extends Context.Tag("@collector/core/Chain")<Chain, ChainService>() {}
