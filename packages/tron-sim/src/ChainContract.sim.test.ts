import type { Chain } from "@collector/core"
import { defaultNodeConfig, TronNodeChain } from "@collector/tron-node"
import { chainContractSuite } from "@collector/tron-node/testing"
import { Effect, Option, type Scope } from "effect"
import type { SimBlock } from "./SimBlock.js"
import type * as SimChain from "./SimChain.js"
import { defaultSimConfig, type SimConfig } from "./SimConfig.js"
import * as SimInProcess from "./SimInProcess.js"
import { head, inclusionOf, solidified } from "./SimState.js"
import { adapterFor, startSimNode } from "./testing/SimNode.js"
import { signAndBroadcast, usdtTransfer, wallet } from "./testing/SimWallet.js"

/**
 * The Chain contract against the simulator, over HTTP and answered in process (the same adapter
 * over either client). Expectations come from the simulator's
 * own state or from the figures set up here, never from the adapter. The set-up block holds
 * every kind of receipt the suite asks about: a mint, a deposit, a batch transfer with several
 * USDT logs, another token's transfer to the service and a transfer that ran out of energy.
 */

const service = wallet(1)
const payer = wallet(2)
const exchange = wallet(7)
const fresh = wallet(8)
const payee1 = wallet(9)
const payee2 = wallet(10)
const trx = (n: bigint) => n * 1_000_000n
const usdt = (n: bigint) => n * 1_000_000n
const usdtContract = "TXYZopYRdj2D9XRtbG411XZZ3kM5VkAeBf"
/** The `from` of a minting Transfer log: the zero address. */
const zeroAddress = "T9yD14Nj9j7xAB4dbGeiX9h8unkKHxuWwb"

const refOf = (block: SimBlock): Chain.BlockRef => ({
  number: block.number,
  hash: block.blockId,
  parentHash: block.parentHash,
  timestamp: new Date(block.timestamp)
})

const genesis: Partial<SimConfig> = {
  genesisAccounts: [{ address: service.address, trx: trx(100n), usdt: usdt(5n) }, { address: payer.address, trx: trx(100n), usdt: usdt(10n) }]
}

/** A simulator and the production adapter reaching it. */
type Connect = Effect.Effect<{ readonly sim: { readonly chain: SimChain.SimChain }; readonly adapter: Chain.Chain["Type"] }, unknown, Scope.Scope>

const overHttp: Connect = Effect.gen(function*() {
  const sim = yield* startSimNode(genesis)
  return { sim, adapter: yield* adapterFor(sim.url) }
})

const inProcess: Connect = Effect.gen(function*() {
  const sim = yield* SimInProcess.make(defaultSimConfig("nile", genesis))
  const adapter = yield* TronNodeChain.make(defaultNodeConfig("nile", {
    fullNodeUrl: sim.url,
    solidityUrl: sim.url,
    retries: 0,
    requestsPerSecond: 1000
  })).pipe(Effect.provide(sim.layer))
  return { sim, adapter }
})

const suite = (name: string, connect: Connect) => chainContractSuite({
  name,
  capabilities: ["mine", "transfer", "failedReceipt", "severalLogsInOneTx", "otherTokenLog"],
  backend: Effect.gen(function*() {
    const { adapter, sim } = yield* connect
    // One block with a mint, a deposit and a transfer that runs out of energy (a fee limit of 0.001 TRX).
    const minted = yield* sim.chain.mintUsdt(exchange.address, usdt(1000n))
    const deposit = yield* sim.chain.transferUsdt({ from: exchange.address, to: service.address, amount: usdt(25n) })
    const outOfEnergy = yield* signAndBroadcast(sim.chain, yield* usdtTransfer(sim.chain, payer, fresh.address, 1n, 1000n), payer)
    const batch = yield* sim.chain.batchTransferUsdt({
      from: exchange.address,
      transfers: [{ to: payee1.address, amount: usdt(3n) }, { to: payee2.address, amount: usdt(4n) }, { to: payee1.address, amount: 5n }]
    })
    // One transaction with logs of two contracts: only its second log (index 1) is USDT.
    const alongside = yield* sim.chain.mintUsdtAlongsideOther({ to: payee2.address, amount: 6n, otherAmount: usdt(9n) })
    // Another token paid to the service's own address: a scanner must not count it.
    const otherToken = yield* sim.chain.transferOtherToken({ to: service.address, amount: usdt(77n) })
    const [block] = yield* sim.chain.mine()
    yield* sim.chain.delegateEnergy(service.address, 65_000n)
    yield* sim.chain.mine(20)
    const state = yield* sim.chain.state
    const info = Option.getOrThrow(inclusionOf(state, outOfEnergy)).included.info
    if (info.contractRet !== "OUT_OF_ENERGY") return yield* Effect.dieMessage(`set-up expected OUT_OF_ENERGY, got ${info.contractRet}`)
    return {
      chain: adapter,
      mine: (count: number) => Effect.asVoid(sim.chain.mine(count)),
      transfer: (amount: bigint) =>
        Effect.map(
          Effect.orDie(sim.chain.transferUsdt({ from: exchange.address, to: fresh.address, amount })),
          (txid) => ({ txid, from: exchange.address, to: fresh.address })
        ),
      facts: {
        head: refOf(head(state)),
        solidified: refOf(solidified(state)),
        block: {
          ref: refOf(block!),
          transfers: [
            { txid: minted, logIndex: 0, from: zeroAddress, to: exchange.address, amount: usdt(1000n), contract: usdtContract },
            { txid: deposit, logIndex: 0, from: exchange.address, to: service.address, amount: usdt(25n), contract: usdtContract },
            { txid: batch, logIndex: 0, from: exchange.address, to: payee1.address, amount: usdt(3n), contract: usdtContract },
            { txid: batch, logIndex: 1, from: exchange.address, to: payee2.address, amount: usdt(4n), contract: usdtContract },
            { txid: batch, logIndex: 2, from: exchange.address, to: payee1.address, amount: 5n, contract: usdtContract },
            { txid: alongside, logIndex: 1, from: zeroAddress, to: payee2.address, amount: 6n, contract: usdtContract }
          ],
          severalLogsTxid: batch,
          otherTokenTxid: otherToken,
          failedTxid: outOfEnergy
        },
        missingBlock: head(state).number + 1n,
        account: {
          address: service.address,
          activated: true,
          trx: trx(100n),
          usdt: usdt(30n),
          energyLimit: 65_000n,
          energyUsed: 0n,
          freeBandwidthLimit: 600n,
          freeBandwidthUsed: 0n,
          stakedBandwidthLimit: 0n,
          stakedBandwidthUsed: 0n,
          atBlock: solidified(state).number
        },
        unknownAccount: fresh.address,
        receipt: {
          txid: outOfEnergy,
          blockNumber: block!.number,
          blockTime: new Date(block!.timestamp),
          result: "OUT_OF_ENERGY" as const,
          fee: info.fee,
          energyFee: info.receipt.energyFee,
          energyUsage: info.receipt.energyUsageTotal,
          bandwidthFee: info.receipt.netFee,
          bandwidthUsage: info.receipt.netUsage
        },
        unknownTxid: "ff".repeat(32),
        parameters: { energyFee: 100n, bandwidthFee: 1000n, freeBandwidthPerDay: 600n, activationFee: 1_100_000n },
        refusedEstimate: {
          transfer: { from: service.address, to: exchange.address, amount: usdt(1000n) },
          reason: "/wallet/estimateenergy: CONTRACT_EXE_ERROR: REVERT opcode executed"
        }
      }
    }
  }).pipe(Effect.orDie)
})

suite("simulator over HTTP", overHttp)
suite("simulator in process", inProcess)
