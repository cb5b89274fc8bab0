import { Layer } from "effect"
import { MemoryDatabase, type MemoryDatabaseOptions } from "./MemoryDatabase.js"
import * as MemoryAccessTokenRepository from "../tenants/MemoryAccessTokenRepository.js"
import * as MemoryComponentStatus from "../engine/MemoryComponentStatus.js"
import * as MemoryDelegationLedger from "../delegation/MemoryDelegationLedger.js"
import * as MemoryFeeLedger from "../fees/MemoryFeeLedger.js"
import * as MemoryResourceAccounts from "../delegation/MemoryResourceAccounts.js"
import * as MemoryDeliveryLedger from "../notifications/MemoryDeliveryLedger.js"
import * as MemoryDepositBook from "../scanning/MemoryDepositBook.js"
import * as MemoryStorageProbe from "../storage/MemoryStorageProbe.js"
import * as MemoryIdempotencyStore from "../idempotency/MemoryIdempotencyStore.js"
import * as MemorySettingsRepository from "../settings/MemorySettingsRepository.js"
import * as MemoryTenantRepository from "../tenants/MemoryTenantRepository.js"
import * as MemoryWalletRepository from "../wallets/MemoryWalletRepository.js"
import * as MemoryWalletKeyDirectory from "../wallets/MemoryWalletKeyDirectory.js"
import * as MemoryAutomationLedger from "../sweeps/MemoryAutomationLedger.js"
import * as MemoryBalanceLedger from "../balances/MemoryBalanceLedger.js"
import * as MemoryDepositRepository from "../deposits/MemoryDepositRepository.js"
import * as MemoryScanLedger from "../scanning/MemoryScanLedger.js"
import * as MemorySealedValues from "../secrets/MemorySealedValues.js"
import * as MemoryNotificationRepository from "../notifications/MemoryNotificationRepository.js"
import * as MemoryConsoleQueries from "../operators/MemoryConsoleQueries.js"
import * as MemoryOperatorAuditLog from "../operators/MemoryOperatorAuditLog.js"
import * as MemoryOperatorTokenRepository from "../operators/MemoryOperatorTokenRepository.js"
import * as MemorySweepRepository from "../sweeps/MemorySweepRepository.js"

/**
 * Every storage port on one memory database, itself provided too (simulations read its tables to
 * check invariants). A new, empty store each time the layer is built.
 */
const ports = Layer.mergeAll(
  MemoryComponentStatus.layer,
  MemoryDepositBook.layer,
  MemoryStorageProbe.layer,
  MemoryTenantRepository.layer,
  MemoryAccessTokenRepository.layer,
  MemoryIdempotencyStore.layer,
  MemoryWalletRepository.layer,
  MemoryWalletKeyDirectory.layer,
  MemorySettingsRepository.layer,
  MemoryScanLedger.layer,
  MemoryDepositRepository.layer,
  MemoryBalanceLedger.layer,
  MemoryAutomationLedger.layer,
  MemoryNotificationRepository.layer,
  MemoryDeliveryLedger.layer,
  MemorySweepRepository.layer,
  MemorySealedValues.layer,
  MemoryDelegationLedger.layer,
  MemoryFeeLedger.layer,
  MemoryResourceAccounts.layer,
  MemoryOperatorTokenRepository.layer,
  MemoryOperatorAuditLog.layer,
  MemoryConsoleQueries.layer
)

export const MemoryStorage = ports.pipe(Layer.provideMerge(MemoryDatabase.layer))

/** The same over a database built with `options` (an observer of every change, for a simulation's trace). */
export const memoryStorageWith = (options: MemoryDatabaseOptions) => ports.pipe(Layer.provideMerge(MemoryDatabase.layerWith(options)))
