import { LocalSigner } from "@collector/tron"
import { adapterFor, sentBy, startSimNode, wallet } from "@collector/tron-sim/testing"
import { AesGcmSecretBox, MasterKey, MasterKeyring, NodeEntropy } from "@collector/vault"
import { describe, expect, it } from "@effect/vitest"
import { Duration, Effect, Layer, Option } from "effect"
import { Chain, Delegation, Memory, Secrets, type Sweeps, Wallets } from "@collector/core"

/**
 * Lending the own stake for one task and taking it back, on the simulated node over HTTP through
 * the real adapter, with a crash at each point. Default parameters give 10 energy per staked
 * TRX: a transfer's 64,285 energy needs 6,429 TRX of stake (worked by hand), and the receiver
 * then has floor(6,429 × 10) = 64,290 energy.
 */

const owner = wallet(61)
const receiver = wallet(62)
const trx = (n: bigint) => n * 1_000_000n
const needed = trx(6_429n)
const taskId = "7001" as Sweeps.SweepTaskId
const request = { taskId, receiver: receiver.address, energy: 64_285n }

const box = AesGcmSecretBox.make(MasterKeyring.make({ current: MasterKey.unsafeMake(Buffer.alloc(32, 9)) }), NodeEntropy.make)

/** A crash right after `call` ran: the process dies with the call's effect done. */
const crashAfter = <A, E>(effect: Effect.Effect<A, E>) => Effect.zipRight(effect, Effect.dieMessage("crash"))

const world = (stake: bigint, alter: (chain: Chain.ChainService) => Chain.ChainService = (chain) => chain) =>
  Effect.gen(function*() {
    const sim = yield* startSimNode({
      genesisAccounts: [{ address: owner.address, trx: trx(5n), stakedForEnergy: stake }, { address: receiver.address, trx: trx(1n), usdt: 5_000_000n }]
    })
    const chain = yield* adapterFor(sim.url)
    const sealed = yield* box.seal(owner.secretKey, Secrets.walletKeyContext(owner.address))
    const account = { network: "nile" as const, address: owner.address, key: Wallets.localKey(sealed) }
    const ledger = yield* Effect.provide(Delegation.DelegationLedger, Memory.MemoryStorage)
    const ports = Layer.mergeAll(Layer.succeed(Chain.Chain, chain), Layer.succeed(Delegation.DelegationLedger, ledger), Layer.succeed(Wallets.Signer, LocalSigner.make(box)))
    const altered = Layer.mergeAll(Layer.succeed(Chain.Chain, alter(chain)), Layer.succeed(Delegation.DelegationLedger, ledger), Layer.succeed(Wallets.Signer, LocalSigner.make(box)))
    const loans = Delegation.makeStakeLoans(account)
    // Receipts are read from the solidified node: 20 blocks make the latest solidified.
    const solidify = sim.chain.mine(20)
    const lent = chain.lentEnergyStake({ owner: owner.address, receiver: receiver.address })
    const sent = Effect.map(sentBy(sim.chain, owner.address), (txids) => txids.length)
    const row = Effect.map(ledger.find(taskId), Option.getOrThrow)
    return { sim, chain, loans, ports, altered, solidify, lent, sent, row }
  })

/** Real time, the simulator's clock; `later` is past the transactions' validity and grace. */
const now = () => new Date()
const later = () => new Date(Date.now() + Duration.toMillis(Duration.minutes(13)))

describe("lending the own stake for a sweep task", () => {
  it.scopedLive("lends exactly the stake the energy needs once, and takes it back once the sweep is done", () =>
    Effect.gen(function*() {
      const w = yield* world(trx(10_000n))
      const first = yield* Effect.provide(w.loans.lend(request, now()), w.ports)
      expect(first._tag).toBe("Pending")
      expect((yield* w.row).state).toBe("broadcast")
      yield* w.solidify
      const lent = yield* Effect.provide(w.loans.lend(request, now()), w.ports)
      expect(lent._tag).toBe("Lent")
      expect((yield* w.row)).toMatchObject({ state: "confirmed", balance: needed, energy: 64_285n, owner: owner.address, receiver: receiver.address })
      expect((yield* w.chain.resources(receiver.address)).energyLimit).toBe(64_290n)
      // Asked again, it is the same delegation: nothing more is sent.
      expect((yield* Effect.provide(w.loans.lend(request, now()), w.ports))._tag).toBe("Lent")
      expect(yield* w.sent).toBe(1)
      expect(yield* w.lent).toBe(needed)

      expect(Option.getOrThrow(yield* Effect.provide(w.loans.reclaim(taskId, now()), w.ports))._tag).toBe("Pending")
      expect((yield* w.row).state).toBe("reclaim_broadcast")
      yield* w.solidify
      expect(Option.getOrThrow(yield* Effect.provide(w.loans.reclaim(taskId, now()), w.ports))._tag).toBe("Reclaimed")
      expect(yield* w.lent).toBe(0n)
      expect(yield* w.chain.delegatableEnergyStake(owner.address)).toBe(trx(10_000n))
      expect(yield* w.sent).toBe(2)
      // A reclaimed task is never delegated again.
      expect((yield* Effect.provide(w.loans.lend(request, now()), w.ports))._tag).toBe("Refused")
      expect(yield* w.sent).toBe(2)
    }))

  it.scopedLive("a crash after the delegation was broadcast, before it was recorded as such: found by its txid, never sent twice", () =>
    Effect.gen(function*() {
      const w = yield* world(trx(10_000n), (chain) => ({ ...chain, broadcast: (tx) => crashAfter(chain.broadcast(tx)) }))
      const crashed = yield* Effect.exit(Effect.provide(w.loans.lend(request, now()), w.altered))
      expect(crashed._tag).toBe("Failure")
      expect((yield* w.row).state).toBe("planned")
      yield* w.solidify
      // Restarted, even past the transaction's validity: it landed, so it is confirmed, not rebuilt.
      expect((yield* Effect.provide(w.loans.lend(request, later()), w.ports))._tag).toBe("Lent")
      expect(yield* w.sent).toBe(1)
      expect(yield* w.lent).toBe(needed)
    }))

  it.scopedLive("a crash after the delegation was recorded, before it was broadcast: waits out its validity, then sends it once", () =>
    Effect.gen(function*() {
      const w = yield* world(trx(10_000n), (chain) => ({ ...chain, broadcast: () => Effect.dieMessage("crash") }))
      expect((yield* Effect.exit(Effect.provide(w.loans.lend(request, now()), w.altered)))._tag).toBe("Failure")
      const planned = yield* w.row
      expect(planned.state).toBe("planned")
      yield* w.solidify
      // Still able to land as far as anyone knows: not rebuilt yet.
      expect((yield* Effect.provide(w.loans.lend(request, now()), w.ports))._tag).toBe("Pending")
      expect(yield* w.sent).toBe(0)
      const rebuilt = yield* Effect.provide(w.loans.lend(request, later()), w.ports)
      expect(rebuilt._tag).toBe("Pending")
      expect((yield* w.row).delegateTxid).not.toBe(planned.delegateTxid)
      yield* w.solidify
      expect((yield* Effect.provide(w.loans.lend(request, later()), w.ports))._tag).toBe("Lent")
      expect(yield* w.sent).toBe(1)
      expect(yield* w.lent).toBe(needed)
    }))

  it.scopedLive("a crash after the sweep settled, before the reclaim: the open delegations are taken back later", () =>
    Effect.gen(function*() {
      const w = yield* world(trx(10_000n))
      yield* Effect.provide(w.loans.lend(request, now()), w.ports)
      yield* w.solidify
      yield* Effect.provide(w.loans.lend(request, now()), w.ports)
      // The process died here; after the restart the reclaim pass reads what is still lent.
      let finished = false
      const pass = Effect.provide(Delegation.reclaimPass(w.loans, "nile", () => Effect.succeed(finished), now(), 10), w.ports)
      // While the sweep is not finished its energy stays lent.
      expect(yield* pass).toEqual([])
      expect((yield* w.row).state).toBe("confirmed")
      finished = true
      expect((yield* pass).map((outcome) => outcome._tag)).toEqual(["Pending"])
      yield* w.solidify
      expect((yield* pass).map((outcome) => outcome._tag)).toEqual(["Reclaimed"])
      // Done: nothing is left open for the next pass.
      expect(yield* pass).toEqual([])
      expect(yield* w.lent).toBe(0n)
      expect(yield* w.sent).toBe(2)
    }))

  it.scopedLive("a crash during the reclaim (recorded, not broadcast): retried until the stake is back, once", () =>
    Effect.gen(function*() {
      let crashes = true
      const w = yield* world(trx(10_000n), (chain) => ({
        ...chain,
        broadcast: (tx) => crashes && tx.txid !== "" ? Effect.dieMessage("crash") : chain.broadcast(tx)
      }))
      yield* Effect.provide(w.loans.lend(request, now()), w.ports)
      yield* w.solidify
      yield* Effect.provide(w.loans.lend(request, now()), w.ports)
      expect((yield* Effect.exit(Effect.provide(w.loans.reclaim(taskId, now()), w.altered)))._tag).toBe("Failure")
      const recorded = yield* w.row
      expect(recorded.state).toBe("reclaim_broadcast")
      crashes = false
      expect(Option.getOrThrow(yield* Effect.provide(w.loans.reclaim(taskId, now()), w.ports))._tag).toBe("Pending")
      expect(yield* w.lent).toBe(needed)
      expect(Option.getOrThrow(yield* Effect.provide(w.loans.reclaim(taskId, later()), w.ports))._tag).toBe("Pending")
      expect((yield* w.row).reclaimTxid).not.toBe(recorded.reclaimTxid)
      yield* w.solidify
      expect(Option.getOrThrow(yield* Effect.provide(w.loans.reclaim(taskId, later()), w.ports))._tag).toBe("Reclaimed")
      expect(yield* w.lent).toBe(0n)
      expect(yield* w.sent).toBe(2)
    }))

  it.scopedLive("a stake too small for the transfer: Short with the figures, nothing recorded or sent", () =>
    Effect.gen(function*() {
      const w = yield* world(trx(6_428n))
      expect(yield* Effect.provide(w.loans.lend(request, now()), w.ports)).toEqual({
        _tag: "Short",
        needed,
        available: trx(6_428n),
        reason: `the own stake can lend ${trx(6_428n)} SUN, the transfer needs ${needed} SUN staked`
      })
      expect(yield* Effect.flatMap(Effect.provide(Delegation.DelegationLedger, w.ports), (ledger) => ledger.find(taskId))).toEqual(Option.none())
      expect(yield* w.sent).toBe(0)
    }))
})
