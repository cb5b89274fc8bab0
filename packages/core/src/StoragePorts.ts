import type { AccessTokenRepository } from "./AccessTokenRepository"
import type { BalanceLedger } from "./balances/BalanceLedger"
import type { DepositRepository } from "./deposits/DepositRepository"
import type { ComponentStatus } from "./engine/ComponentStatus"
import type { IdempotencyStore } from "./Idempotency"
import type { DeliveryLedger } from "./notifications/DeliveryLedger"
import type { NotificationRepository } from "./notifications/NotificationRepository"
import type { DepositBook } from "./scanning/DepositBook"
import type { ScanLedger } from "./scanning/ScanLedger"
import type { SettingsRepository } from "./SettingsRepository"
import type { StorageProbe } from "./StorageProbe"
import type { AutomationLedger } from "./sweeps/AutomationLedger"
import type { SweepRepository } from "./sweeps/SweepRepository"
import type { TenantRepository } from "./TenantRepository"
import type { WalletRepository } from "./WalletRepository"

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
