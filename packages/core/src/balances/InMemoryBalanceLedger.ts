import { Clock, Context, Effect, Layer, Option, Ref } from "effect"
import type { WalletId } from "../Ids"
import type { Network } from "../Network"
import { BalanceLedger, type DueWallet } from "./BalanceLedger"

/** A wallet's balance columns as the ledger keeps them. */
export interface LedgerWallet extends DueWallet {
  readonly network: Network
  /** Null until the first sync (`balanceBlock` 0). */
  readonly usdt: bigint | null
  readonly trx: bigint | null
  readonly balanceBlock: bigint
  readonly syncedAt: Date | null
  readonly staleFrom: bigint | null
}

/** Lets tests put wallets into the in-memory ledger and look at them. */
export class InMemoryBalanceLedgerDriver extends Context.Tag("@collector/core/InMemoryBalanceLedgerDriver")<
  InMemoryBalanceLedgerDriver,
  {
    readonly add: (network: Network, wallet: DueWallet) => Effect.Effect<void>
    /** What a booked deposit does: the wallet's balances are stale from `block` on. */
    readonly markStale: (id: WalletId, block: bigint) => Effect.Effect<void>
    readonly get: (id: WalletId) => Effect.Effect<Option.Option<LedgerWallet>>
  }
>() {}

const byId = (a: LedgerWallet, b: LedgerWallet) => (BigInt(a.id) < BigInt(b.id) ? -1 : BigInt(a.id) > BigInt(b.id) ? 1 : 0)
const compare = (x: bigint | number, y: bigint | number) => (x < y ? -1 : x > y ? 1 : 0)

/** The same rules as the SQL ledger, over a map; see `BalanceLedger`. */
export const makeInMemoryBalanceLedger = Effect.gen(function*() {
  const wallets = yield* Ref.make(new Map<WalletId, LedgerWallet>())
  const inNetwork = (network: Network) => Effect.map(Ref.get(wallets), (all) => [...all.values()].filter((w) => w.network === network))

  const ledger = BalanceLedger.of({
    due: (network, limit, solidified) =>
      Effect.map(inNetwork(network), (all) => {
        const jumps = (w: LedgerWallet) => w.staleFrom !== null && w.staleFrom <= solidified
        const stale = all.filter(jumps).sort((a, b) => compare(a.staleFrom!, b.staleFrom!) || byId(a, b))
        const rotation = all.filter((w) => !jumps(w)).sort((a, b) =>
          a.syncedAt === null || b.syncedAt === null
            ? compare(a.syncedAt === null ? 0 : 1, b.syncedAt === null ? 0 : 1) || byId(a, b)
            : compare(a.syncedAt.getTime(), b.syncedAt.getTime()) || byId(a, b))
        return [...stale, ...rotation].slice(0, limit).map(({ address, id }) => ({ id, address }))
      }),
    record: (network, readings) =>
      Effect.flatMap(Clock.currentTimeMillis, (now) =>
        Ref.modify(wallets, (all) => {
          const next = new Map(all)
          const written = new Set<WalletId>()
          for (const reading of readings) {
            const wallet = next.get(reading.walletId)
            if (wallet === undefined || wallet.network !== network || wallet.balanceBlock > reading.atBlock) continue
            next.set(wallet.id, {
              ...wallet,
              usdt: reading.usdt,
              trx: reading.trx,
              balanceBlock: reading.atBlock,
              syncedAt: new Date(now),
              staleFrom: wallet.staleFrom !== null && wallet.staleFrom <= reading.atBlock ? null : wallet.staleFrom
            })
            written.add(wallet.id)
          }
          return [written.size, next]
        })),
    backlog: (network) =>
      Effect.map(inNetwork(network), (all) => ({
        unsynced: all.filter((w) => w.balanceBlock === 0n).length,
        stale: all.filter((w) => w.staleFrom !== null).length
      }))
  })

  const driver = InMemoryBalanceLedgerDriver.of({
    add: (network, { address, id }) =>
      Ref.update(wallets, (all) =>
        new Map(all).set(id, { id, address, network, usdt: null, trx: null, balanceBlock: 0n, syncedAt: null, staleFrom: null })),
    markStale: (id, block) =>
      Ref.update(wallets, (all) => {
        const wallet = all.get(id)
        if (wallet === undefined) return all
        const staleFrom = wallet.staleFrom === null || block > wallet.staleFrom ? block : wallet.staleFrom
        return new Map(all).set(id, { ...wallet, staleFrom })
      }),
    get: (id) => Effect.map(Ref.get(wallets), (all) => Option.fromNullable(all.get(id)))
  })
  return { ledger, driver }
})

/** The in-memory ledger and its driver. */
export const InMemoryBalanceLedger = Layer.effectContext(
  Effect.map(makeInMemoryBalanceLedger, ({ driver, ledger }) =>
    Context.make(BalanceLedger, ledger).pipe(Context.add(InMemoryBalanceLedgerDriver, driver)))
)
