import type { AccessTokenRepository } from "../tenants/AccessTokenRepository.js"
import type { BalanceLedger } from "../balances/BalanceLedger.js"
import type { DelegationLedger } from "../delegation/DelegationLedger.js"
import type { ResourceAccounts } from "../delegation/ResourceAccounts.js"
import type { DepositRepository } from "../deposits/DepositRepository.js"
import type { ComponentStatus } from "../engine/ComponentStatus.js"
import type { FeeLedger } from "../fees/FeeLedger.js"
import type { IdempotencyStore } from "../idempotency/Idempotency.js"
import type { DeliveryLedger } from "../notifications/DeliveryLedger.js"
import type { ConsoleQueries } from "../operators/ConsoleQueries.js"
import type { OperatorAuditLog } from "../operators/OperatorAuditLog.js"
import type { OperatorTokenRepository } from "../operators/OperatorTokenRepository.js"
import type { NotificationRepository } from "../notifications/NotificationRepository.js"
import type { DepositBook } from "../scanning/DepositBook.js"
import type { ScanLedger } from "../scanning/ScanLedger.js"
import type { SealedValues } from "../secrets/SealedValues.js"
import type { SettingsRepository } from "../settings/SettingsRepository.js"
import type { StorageProbe } from "./StorageProbe.js"
import type { AutomationLedger } from "../sweeps/AutomationLedger.js"
import type { SweepRepository } from "../sweeps/SweepRepository.js"
import type { TenantRepository } from "../tenants/TenantRepository.js"
import type { WalletRepository } from "../wallets/WalletRepository.js"

/**
 * Every port the core stores through, and the probe that says whether that store answers. A
 * storage implementation (PostgreSQL's `PgStorage`, the memory database's `MemoryStorage`)
 * provides all of them over one store, so that what one port writes the others read.
 */
export type StoragePorts =
  | TenantRepository
  | AccessTokenRepository
  | IdempotencyStore
  | WalletRepository
  | SettingsRepository
  | ScanLedger
  | DepositBook
  | DepositRepository
  | BalanceLedger
  | SweepRepository
  | AutomationLedger
  | NotificationRepository
  | DeliveryLedger
  | ComponentStatus
  | StorageProbe
  | SealedValues
  | DelegationLedger
  | FeeLedger
  | ResourceAccounts
  | OperatorTokenRepository
  | OperatorAuditLog
  | ConsoleQueries
