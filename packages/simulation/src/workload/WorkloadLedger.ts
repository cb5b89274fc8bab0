import type { Kernel, Settings, Tenants } from "@collector/core"

/** How a repeated idempotent request was sent: again later, with other parameters, or twice at once. */
export type ReplayKind = "replay" | "conflict" | "concurrent"

/**
 * One comparison of a repeated write with the write it repeats, each answer as the API's status
 * and body without its trace_id (`200 {"code":0,...}`). `expected` is what the repeat had to
 * answer: the first answer (replay, concurrent) or the contract's conflict error.
 */
export interface ReplayComparison {
  readonly kind: ReplayKind
  readonly operation: string
  readonly requestId: string
  readonly expected: string
  readonly actual: string
}

/** The answer a conflicting replay must get: the contract's 409 with error_code IDEMPOTENCY_CONFLICT. */
export const conflictAnswer = "409 IDEMPOTENCY_CONFLICT"

/** A write the workload sent through the API, with its first answer (status and body without trace_id). */
export interface SentWrite {
  readonly operation: string
  readonly scope: Tenants.TenantScope
  readonly requestId: string
  /** The body without request_id. */
  readonly body: Record<string, unknown>
  readonly answer: string
}

const scopeKey = (tenantId: Kernel.TenantId, network: Kernel.Network) => `${tenantId}/${network}`

/** What the workload was handed and chose for one (tenant, network) when it created the tenant. */
export interface LedgerScope {
  readonly tenantId: Kernel.TenantId
  readonly network: Kernel.Network
  /** The tenant's name, which every webhook URL the workload sets for it names (`webhookUrl`). */
  readonly tenantName: string
  /** The app the operator handed over for this scope. */
  readonly appId: string
  /** The confirmation rule the workload set for this scope. */
  readonly rule: Settings.ConfirmationRule
}

/**
 * What the workload did that the invariants read: the collection address of each
 * (tenant, network) it set (once per scope: an address it owns, one of the scope's wallets, or a
 * wallet of another tenant), every write it sent through the API with its first answer, and every replay comparison it made.
 */
export class WorkloadLedger {
  private readonly collection = new Map<string, string>()
  private readonly scopeOf = new Map<string, LedgerScope>()
  readonly replays: Array<ReplayComparison> = []
  readonly writes: Array<SentWrite> = []

  recordScope(scope: LedgerScope): void {
    this.scopeOf.set(scopeKey(scope.tenantId, scope.network), scope)
  }

  scope(tenantId: Kernel.TenantId, network: Kernel.Network): LedgerScope | undefined {
    return this.scopeOf.get(scopeKey(tenantId, network))
  }

  /** Every scope the workload created, in the order it created them. */
  get scopes(): ReadonlyArray<LedgerScope> {
    return [...this.scopeOf.values()]
  }

  setCollectionAddress(tenantId: Kernel.TenantId, network: Kernel.Network, address: string): void {
    this.collection.set(scopeKey(tenantId, network), address)
  }

  collectionAddressOf(tenantId: Kernel.TenantId, network: Kernel.Network): string | undefined {
    return this.collection.get(scopeKey(tenantId, network))
  }

  /** Every collection address the workload set, with its scope, in the order they were set. */
  get collectionAddresses(): ReadonlyArray<{ readonly tenantId: Kernel.TenantId; readonly network: Kernel.Network; readonly address: string }> {
    return [...this.collection].map(([key, address]) => {
      const [tenantId, network] = key.split("/") as [Kernel.TenantId, Kernel.Network]
      return { tenantId, network, address }
    })
  }

  recordWrite(write: SentWrite): void {
    this.writes.push(write)
  }

  recordReplay(comparison: ReplayComparison): void {
    this.replays.push(comparison)
  }
}
