import { TronAddress, Trc20Call } from "@collector/tron"
import { Option } from "effect"
import type { TransferEnergy } from "./SimConfig"
import { type SimLog, transferLog } from "./SimTransactionInfo"
import { setUsdtBalance, usdtBalance, type WorldState } from "./WorldState"

/**
 * The USDT contract, emulated rather than interpreted: the calls the service makes
 * (`transfer`, `balanceOf`) and the issuer's `mint`, with the energy real receipts show.
 * Addresses are 21-byte hex throughout.
 */

/** keccak256("mint(address,uint256)")[0:4]: how the simulated issuer creates tokens. */
export const mintSelector = "40c10f19"

/** The zero address: the `from` of a minting Transfer log, as ERC-20 tokens emit it. */
export const zeroAddress = "41" + "00".repeat(20)

export type UsdtCall =
  | { readonly kind: "transfer"; readonly to: string; readonly amount: bigint }
  | { readonly kind: "balanceOf"; readonly owner: string }
  | { readonly kind: "mint"; readonly to: string; readonly amount: bigint }
  | { readonly kind: "unknown" }

const hex21 = (base58: string) => Option.getOrThrow(TronAddress.toHex(base58))

/** Reads call data; anything but the three known calls is `unknown` (and reverts). */
export const parseCall = (data: string): UsdtCall => {
  const hex = data.toLowerCase()
  const transfer = Trc20Call.decodeTransfer(hex)
  if (Option.isSome(transfer)) return { kind: "transfer", to: hex21(transfer.value.to), amount: transfer.value.amount }
  const balanceOf = Trc20Call.decodeBalanceOf(hex)
  if (Option.isSome(balanceOf)) return { kind: "balanceOf", owner: hex21(balanceOf.value.owner) }
  // mint(address,uint256) has the transfer layout under another selector.
  if (hex.startsWith(mintSelector)) {
    const asTransfer = Trc20Call.decodeTransfer(Trc20Call.transferSelector + hex.slice(mintSelector.length))
    if (Option.isSome(asTransfer)) return { kind: "mint", to: hex21(asTransfer.value.to), amount: asTransfer.value.amount }
  }
  return { kind: "unknown" }
}

export const mintData = (to: string, amount: bigint): string =>
  mintSelector + to.slice(2).padStart(64, "0") + amount.toString(16).padStart(64, "0")

export interface CallResult {
  readonly outcome: "SUCCESS" | "REVERT"
  /** Energy the call needs to complete, penalty included. */
  readonly energy: bigint
  readonly penalty: bigint
  /** The state had the call succeeded; the caller discards it when the call runs out of energy. */
  readonly world: WorldState
  readonly logs: ReadonlyArray<SimLog>
  /** `constant_result[0]` / `contractResult[0]`. */
  readonly returned: string
  readonly revertReason?: string
}

const zeroWord = "00".repeat(32)

const reverted = (world: WorldState, energy: bigint): CallResult => ({
  outcome: "REVERT",
  energy,
  penalty: 0n,
  world,
  logs: [],
  returned: "",
  revertReason: "REVERT opcode executed"
})

/** Runs `call` from `caller` against the contract at `contract`; `issuer` alone may mint. */
export const runCall = (
  world: WorldState,
  contract: string,
  caller: string,
  call: UsdtCall,
  energy: TransferEnergy,
  issuer: string
): CallResult => {
  switch (call.kind) {
    case "balanceOf":
      return {
        outcome: "SUCCESS",
        energy: energy.balanceOf,
        penalty: 0n,
        world,
        logs: [],
        returned: usdtBalance(world, call.owner).toString(16).padStart(64, "0")
      }
    case "transfer": {
      const held = usdtBalance(world, caller)
      if (held < call.amount) return reverted(world, energy.reverted)
      // Writing a zero slot costs more than overwriting one: the 64,285 / 130,285 split.
      const fresh = usdtBalance(world, call.to) === 0n
      const total = fresh ? energy.toEmpty : energy.toHolder
      const base = fresh ? energy.toEmptyBase : energy.toHolderBase
      const debited = setUsdtBalance(world, caller, held - call.amount)
      const credited = setUsdtBalance(debited, call.to, usdtBalance(debited, call.to) + call.amount)
      return {
        outcome: "SUCCESS",
        energy: total,
        penalty: total - base,
        world: credited,
        logs: [transferLog(contract, caller, call.to, call.amount)],
        returned: zeroWord
      }
    }
    case "mint": {
      if (caller !== issuer) return reverted(world, energy.reverted)
      const fresh = usdtBalance(world, call.to) === 0n
      return {
        outcome: "SUCCESS",
        energy: fresh ? energy.toEmpty : energy.toHolder,
        penalty: 0n,
        world: setUsdtBalance(world, call.to, usdtBalance(world, call.to) + call.amount),
        logs: [transferLog(contract, zeroAddress, call.to, call.amount)],
        returned: ""
      }
    }
    case "unknown":
      return reverted(world, energy.reverted)
  }
}
