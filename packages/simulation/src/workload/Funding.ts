import { Effect } from "effect"
import type { SimWallet } from "./Population.js"
import { headOf, networkOf, trx, usdt, type Workload } from "./Workload.js"

// A chain control the world no longer allows (a wallet already active, one a reorganisation
// deactivated) is refused by the simulator; the workload goes on.
const chainRefusals = ["SimControlError"]

const someUsdt = (workload: Workload) => usdt(workload.dice.amount(1n, 50n)) + workload.dice.amount(0n, 999_999n)

/** One USDT mint to one wallet. */
export const mintUsdt = (workload: Workload, wallet: SimWallet) =>
  Effect.gen(function*() {
    const amount = someUsdt(workload)
    const txid = yield* workload.outcomes.attempt("mint", networkOf(workload, wallet.scope.network).sim.chain.mintUsdt(wallet.address, amount), chainRefusals)
    if (txid._tag === "Some") wallet.mints.push({ amount, afterBlock: yield* headOf(workload, wallet.scope.network) })
    workload.trace.record(`mint ${wallet.address} ${amount} ${txid._tag === "Some" ? txid.value : "-"}`)
  })

/**
 * Several USDT transfers in one block: one transaction with a log per item (a batch mint, the
 * same wallet possibly twice), or separate mints before the next block.
 */
export const mintMany = (workload: Workload, wallets: ReadonlyArray<SimWallet>) =>
  Effect.gen(function*() {
    const { dice } = workload
    const network = wallets[0]!.scope.network
    const chosen = Array.from({ length: dice.int(2, 4) }, () => dice.pick(wallets))
    if (dice.chance(0.5)) {
      for (const wallet of chosen) yield* mintUsdt(workload, wallet)
      return
    }
    const transfers = chosen.map((wallet) => ({ wallet, to: wallet.address, amount: someUsdt(workload) }))
    const txid = yield* workload.outcomes.attempt(
      "batch mint",
      networkOf(workload, network).sim.chain.batchTransferUsdt({ transfers: transfers.map(({ amount, to }) => ({ to, amount })) }),
      chainRefusals
    )
    const afterBlock = yield* headOf(workload, network)
    if (txid._tag === "Some") {
      for (const { amount, wallet } of transfers) wallet.mints.push({ amount, afterBlock })
      workload.world.paths.count("tx.several-usdt-logs")
      if (new Set(transfers.map((t) => t.to)).size < transfers.length) workload.world.paths.count("tx.same-wallet-twice")
    }
    workload.trace.record(`batch mint ${transfers.map((t) => `${t.to}:${t.amount}`).join(",")} ${txid._tag === "Some" ? txid.value : "-"}`)
  })

/**
 * The other token for a wallet: alone (a Transfer log that must not become a deposit), or in
 * one transaction with USDT, its log first, so the USDT deposit sits at log index 1 of a
 * transaction whose logs name two contracts.
 */
export const otherToken = (workload: Workload, wallet: SimWallet) =>
  Effect.gen(function*() {
    const amount = someUsdt(workload)
    const chain = networkOf(workload, wallet.scope.network).sim.chain
    if (workload.dice.chance(0.5)) {
      const usdtAmount = someUsdt(workload)
      const mint = chain.mintUsdtAlongsideOther({ to: wallet.address, amount: usdtAmount, otherAmount: amount })
      const txid = yield* workload.outcomes.attempt("mint alongside other token", mint, chainRefusals)
      if (txid._tag === "Some") {
        wallet.mints.push({ amount: usdtAmount, afterBlock: yield* headOf(workload, wallet.scope.network) })
        workload.world.paths.count("tx.several-contracts")
      }
      workload.trace.record(`mint alongside other token ${wallet.address} ${usdtAmount} ${amount} ${txid._tag === "Some" ? txid.value : "-"}`)
      return
    }
    const txid = yield* workload.outcomes.attempt("other token", chain.transferOtherToken({ to: wallet.address, amount }), chainRefusals)
    workload.trace.record(`other token ${wallet.address} ${amount} ${txid._tag === "Some" ? txid.value : "-"}`)
  })

/**
 * Pays for a wallet's sweeps the way a tenant might: TRX of its own to burn (sometimes too little
 * for the energy a sweep needs), or energy delegated to it after an activation (sometimes less
 * than a sweep needs). A wallet given nothing needs a rental, with activation.
 */
export const fundWallet = (workload: Workload, wallet: SimWallet) =>
  Effect.gen(function*() {
    const { dice, outcomes, trace } = workload
    const chain = networkOf(workload, wallet.scope.network).sim.chain
    if (dice.chance(0.5)) {
      // A sweep to an empty collection address burns about 14.3 TRX, to a holder about 7.1.
      const amount = trx(dice.pick([2n, 10n, 20n, 40n]))
      const sent = yield* outcomes.attempt("fund trx", chain.transferTrx({ to: wallet.address, amount }), chainRefusals)
      if (sent._tag === "Some") wallet.funding = "trx"
      trace.record(`fund trx ${wallet.address} ${amount} ${sent._tag}`)
      return
    }
    if (wallet.funding === "none") {
      const activated = yield* outcomes.attempt("activate", chain.activate(wallet.address, trx(1n)), chainRefusals)
      trace.record(`activate ${wallet.address} ${activated._tag}`)
    }
    // A transfer needs about 70,700 energy with the margin, 143,300 to an empty address.
    const energy = dice.pick([40_000n, 80_000n, 150_000n, 200_000n])
    const delegated = yield* outcomes.attempt("delegate energy", chain.delegateEnergy(wallet.address, energy), chainRefusals)
    if (delegated._tag === "Some") wallet.funding = "energy"
    trace.record(`delegate ${wallet.address} ${energy} ${delegated._tag}`)
  })
