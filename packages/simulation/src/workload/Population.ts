import type { Kernel, Tenants } from "@collector/core"
import type { CollectionKind } from "./CollectionAddresses.js"

/** How the workload paid for a wallet's sweeps: its own TRX, energy delegated to it, or nothing. */
export type WalletFunding = "none" | "trx" | "energy"

export interface SimWallet {
  readonly id: Kernel.WalletId
  readonly address: string
  readonly customId: string
  readonly scope: Tenants.TenantScope
  funding: WalletFunding
  /** USDT the workload sent it, each with the head block when it was sent (a reorganisation may have undone some). */
  readonly mints: Array<{ readonly amount: bigint; readonly afterBlock: bigint }>
}

/** Blocks from the head to the solidified block on the simulators (their `solidifyDepth`). */
const solidifyDepth = 19n

/** What the wallet was sent in blocks solidified by `head`: what a sweep, which reads the solidified block, will find. */
export const solidUsdt = (wallet: SimWallet, head: bigint): bigint =>
  wallet.mints.filter((m) => m.afterBlock + 1n + solidifyDepth <= head).reduce((sum, m) => sum + m.amount, 0n)

export interface SimScope {
  readonly scope: Tenants.TenantScope
  readonly appId: string
  /** The app's secret, which the tenant signs its API requests with. */
  readonly appSecret: string
  readonly wallets: Array<SimWallet>
  /** Bumped on each URL change, so every new URL differs from the last. */
  webhookVersion: number
  webhookEnabled: boolean
  /** Whether automation was ever enabled: only the first enabling runs a round at once. */
  automationEnabled: boolean
  /** What its collection address is to be (drawn when the scope is created). */
  readonly collectionKind: CollectionKind
}

export interface SimTenant {
  readonly id: Kernel.TenantId
  readonly name: string
  readonly scopes: ReadonlyArray<SimScope>
}

/** The tenants, their scopes and wallets as the workload created them, in creation order. */
export class Population {
  readonly tenants: Array<SimTenant> = []

  get scopes(): ReadonlyArray<SimScope> {
    return this.tenants.flatMap((t) => t.scopes)
  }

  get wallets(): ReadonlyArray<SimWallet> {
    return this.scopes.flatMap((s) => s.wallets)
  }

  walletsOn(network: Kernel.Network): ReadonlyArray<SimWallet> {
    return this.wallets.filter((w) => w.scope.network === network)
  }

  nameOf(tenantId: Kernel.TenantId): string {
    return this.tenants.find((t) => t.id === tenantId)?.name ?? tenantId
  }
}
