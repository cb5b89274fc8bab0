import { TronAddress, Trc20Call } from "@collector/tron"
import { Option } from "effect"
import type { TransferEnergy } from "./SimConfig.js"
import { type SimLog, transferLog } from "./SimTransactionInfo.js"
import { selectorOf } from "./RequestBody.js"
import { type BatchItem, batchMintSelector, batchTransferSelector, decodeBatch } from "./TokenBatch.js"
import { isBlackListed, setBlackListed, setTokenBalance, tokenBalance, type WorldState } from "./WorldState.js"

/**
 * The TRC20 contract the simulator runs, emulated rather than interpreted: the calls the service
 * makes (`transfer`, `balanceOf`), the issuer's `mint`, and the batch calls (`batchTransfer`,
 * the issuer's `batchMint`) that give one transaction several Transfer logs, the issuer's
 * `mintAlongside` that gives one transaction Transfer logs of two contracts, with the energy
 * real receipts show. The same code runs USDT and the other token, each over its own balances
 * (keyed by the contract's address). Addresses are 21-byte hex throughout.
 */

/** keccak256("mint(address,uint256)")[0:4]: how the simulated issuer creates tokens. */
export const mintSelector = "40c10f19"

/**
 * The simulated issuer's `mintAlongside(address partner, address to, uint256 partnerAmount,
 * uint256 amount)`: mints `partnerAmount` of the token at `partner`, then `amount` of this one,
 * both to `to`, in one call. Its two Transfer logs name two contracts, as a swap through a DEX
 * router's logs do: the partner's first (log index 0), this token's second.
 */
export const mintAlongsideSelector = selectorOf("mintAlongside(address,address,uint256,uint256)")

/** The zero address: the `from` of a minting Transfer log, as ERC-20 tokens emit it. */
export const zeroAddress = "41" + "00".repeat(20)

export type UsdtCall =
  | { readonly kind: "transfer"; readonly to: string; readonly amount: bigint }
  | { readonly kind: "balanceOf"; readonly owner: string }
  | { readonly kind: "mint"; readonly to: string; readonly amount: bigint }
  | { readonly kind: "batchTransfer"; readonly items: ReadonlyArray<BatchItem> }
  | { readonly kind: "batchMint"; readonly items: ReadonlyArray<BatchItem> }
  | {
    readonly kind: "mintAlongside"
    readonly partner: string
    readonly to: string
    readonly partnerAmount: bigint
    readonly amount: bigint
  }
  | { readonly kind: "isBlackListed"; readonly owner: string }
  | { readonly kind: "addBlackList"; readonly owner: string }
  | { readonly kind: "removeBlackList"; readonly owner: string }
  | { readonly kind: "unknown" }

const hex21 = (base58: string) => Option.getOrThrow(TronAddress.toHex(base58))

const blackListCalls = [
  [Trc20Call.isBlackListedSelector, "isBlackListed"],
  [Trc20Call.addBlackListSelector, "addBlackList"],
  [Trc20Call.removeBlackListSelector, "removeBlackList"]
] as const

/** Reads call data; anything but the known calls, or a malformed one, is `unknown` (and reverts). */
export const parseCall = (data: string): UsdtCall => {
  const hex = data.toLowerCase()
  const transfer = Trc20Call.decodeTransfer(hex)
  if (Option.isSome(transfer)) return { kind: "transfer", to: hex21(transfer.value.to), amount: transfer.value.amount }
  const balanceOf = Trc20Call.decodeBalanceOf(hex)
  if (Option.isSome(balanceOf)) return { kind: "balanceOf", owner: hex21(balanceOf.value.owner) }
  for (const [selector, kind] of blackListCalls) {
    const owner = Trc20Call.decodeAddressCall(hex, selector)
    if (Option.isSome(owner)) return { kind, owner: hex21(owner.value) }
  }
  // mint(address,uint256) has the transfer layout under another selector.
  if (hex.startsWith(mintSelector)) {
    const asTransfer = Trc20Call.decodeTransfer(Trc20Call.transferSelector + hex.slice(mintSelector.length))
    if (Option.isSome(asTransfer)) return { kind: "mint", to: hex21(asTransfer.value.to), amount: asTransfer.value.amount }
  }
  for (const [selector, kind] of [[batchTransferSelector, "batchTransfer"], [batchMintSelector, "batchMint"]] as const) {
    if (!hex.startsWith(selector)) continue
    const items = decodeBatch(hex.slice(selector.length))
    if (Option.isSome(items)) return { kind, items: items.value }
  }
  if (hex.startsWith(mintAlongsideSelector)) return decodeMintAlongside(hex.slice(mintAlongsideSelector.length))
  return { kind: "unknown" }
}

const addressWord = /^0{24}([0-9a-f]{40})$/

/** Four words: two addresses (20 bytes each, zero-padded), then two amounts; anything else is `unknown`. */
const decodeMintAlongside = (args: string): UsdtCall => {
  const words = args.length === 256 && /^[0-9a-f]+$/.test(args) ? args.match(/.{64}/g)! : []
  const partner = addressWord.exec(words[0] ?? "")
  const to = addressWord.exec(words[1] ?? "")
  if (partner === null || to === null) return { kind: "unknown" }
  return { kind: "mintAlongside", partner: "41" + partner[1], to: "41" + to[1], partnerAmount: BigInt("0x" + words[2]), amount: BigInt("0x" + words[3]) }
}

export const mintAlongsideData = (partner: string, to: string, partnerAmount: bigint, amount: bigint): string =>
  mintAlongsideSelector + [partner.slice(2), to.slice(2)].map((address) => address.padStart(64, "0")).join("") +
  [partnerAmount, amount].map((value) => value.toString(16).padStart(64, "0")).join("")

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

/**
 * Credits `items` one after the other, each to be paid by `from`, with one Transfer log per item
 * in item order. Energy adds up per item, each priced by whether its recipient's slot is fresh
 * at that point (a second credit to the same new address overwrites a slot).
 */
const credit = (world: WorldState, contract: string, from: string, items: ReadonlyArray<BatchItem>, energy: TransferEnergy) => {
  let next = world
  let total = 0n
  let base = 0n
  const logs: Array<SimLog> = []
  for (const item of items) {
    const fresh = tokenBalance(next, contract, item.to) === 0n
    total += fresh ? energy.toEmpty : energy.toHolder
    base += fresh ? energy.toEmptyBase : energy.toHolderBase
    next = setTokenBalance(next, contract, item.to, tokenBalance(next, contract, item.to) + item.amount)
    logs.push(transferLog(contract, from, item.to, item.amount))
  }
  return { world: next, total, base, logs }
}

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
        returned: tokenBalance(world, contract, call.owner).toString(16).padStart(64, "0")
      }
    case "isBlackListed":
      return {
        outcome: "SUCCESS",
        energy: energy.balanceOf,
        penalty: 0n,
        world,
        logs: [],
        returned: (isBlackListed(world, contract, call.owner) ? 1n : 0n).toString(16).padStart(64, "0")
      }
    case "addBlackList":
    case "removeBlackList":
      // Tether's owner alone keeps the list (the issuer here); no event is modelled.
      if (caller !== issuer) return reverted(world, energy.reverted)
      return {
        outcome: "SUCCESS",
        energy: energy.balanceOf,
        penalty: 0n,
        world: setBlackListed(world, contract, call.owner, call.kind === "addBlackList"),
        logs: [],
        returned: ""
      }
    case "transfer": {
      const held = tokenBalance(world, contract, caller)
      // A frozen holder's transfer reverts, as Tether's `require(!isBlackListed[msg.sender])` makes it.
      if (held < call.amount || isBlackListed(world, contract, caller)) return reverted(world, energy.reverted)
      // Writing a zero slot costs more than overwriting one: the 64,285 / 130,285 split.
      const fresh = tokenBalance(world, contract, call.to) === 0n
      const total = fresh ? energy.toEmpty : energy.toHolder
      const base = fresh ? energy.toEmptyBase : energy.toHolderBase
      const debited = setTokenBalance(world, contract, caller, held - call.amount)
      const credited = setTokenBalance(debited, contract, call.to, tokenBalance(debited, contract, call.to) + call.amount)
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
      const fresh = tokenBalance(world, contract, call.to) === 0n
      return {
        outcome: "SUCCESS",
        energy: fresh ? energy.toEmpty : energy.toHolder,
        penalty: 0n,
        world: setTokenBalance(world, contract, call.to, tokenBalance(world, contract, call.to) + call.amount),
        logs: [transferLog(contract, zeroAddress, call.to, call.amount)],
        returned: ""
      }
    }
    case "batchTransfer": {
      // The whole sum is debited first: a sender short of it reverts before any log.
      const held = tokenBalance(world, contract, caller)
      const sum = call.items.reduce((acc, item) => acc + item.amount, 0n)
      if (held < sum || isBlackListed(world, contract, caller)) return reverted(world, energy.reverted)
      const paid = credit(setTokenBalance(world, contract, caller, held - sum), contract, caller, call.items, energy)
      return { outcome: "SUCCESS", energy: paid.total, penalty: paid.total - paid.base, world: paid.world, logs: paid.logs, returned: zeroWord }
    }
    case "batchMint": {
      if (caller !== issuer) return reverted(world, energy.reverted)
      const minted = credit(world, contract, zeroAddress, call.items, energy)
      // As `mint`: no penalty is modelled for the issuer's own calls.
      return { outcome: "SUCCESS", energy: minted.total, penalty: 0n, world: minted.world, logs: minted.logs, returned: "" }
    }
    case "mintAlongside": {
      // The partner must be another contract: minting both amounts of one token is `batchMint`'s job.
      if (caller !== issuer || call.partner === contract) return reverted(world, energy.reverted)
      const partner = credit(world, call.partner, zeroAddress, [{ to: call.to, amount: call.partnerAmount }], energy)
      const own = credit(partner.world, contract, zeroAddress, [{ to: call.to, amount: call.amount }], energy)
      return { outcome: "SUCCESS", energy: partner.total + own.total, penalty: 0n, world: own.world, logs: [...partner.logs, ...own.logs], returned: "" }
    }
    case "unknown":
      return reverted(world, energy.reverted)
  }
}
