import { Layer } from "effect"
import { MemoryDatabase, type MemoryDatabaseOptions } from "./MemoryDatabase.js"
import * as MemoryAccessTokenRepository from "./MemoryAccessTokenRepository.js"
import * as MemoryComponentStatus from "./MemoryComponentStatus.js"
import * as MemoryDelegationLedger from "./MemoryDelegationLedger.js"
import * as MemoryFeeLedger from "./MemoryFeeLedger.js"
import * as MemoryResourceAccounts from "./MemoryResourceAccounts.js"
import * as MemoryDeliveryLedger from "./MemoryDeliveryLedger.js"
import * as MemoryDepositBook from "./MemoryDepositBook.js"
import * as MemoryStorageProbe from "./MemoryStorageProbe.js"
import * as MemoryIdempotencyStore from "./MemoryIdempotencyStore.js"
import * as MemorySettingsRepository from "./MemorySettingsRepository.js"
import * as MemoryTenantRepository from "./MemoryTenantRepository.js"
import * as MemoryWalletRepository from "./MemoryWalletRepository.js"
import * as MemoryWalletKeyDirectory from "./MemoryWalletKeyDirectory.js"
import * as MemoryAutomationLedger from "./MemoryAutomationLedger.js"
import * as MemoryBalanceLedger from "./MemoryBalanceLedger.js"
import * as MemoryDepositRepository from "./MemoryDepositRepository.js"
import * as MemoryScanLedger from "./MemoryScanLedger.js"
import * as MemorySealedValues from "./MemorySealedValues.js"
import * as MemoryNotificationRepository from "./MemoryNotificationRepository.js"
import * as MemoryConsoleQueries from "./MemoryConsoleQueries.js"
import * as MemoryOperatorAuditLog from "./MemoryOperatorAuditLog.js"
import * as MemoryOperatorTokenRepository from "./MemoryOperatorTokenRepository.js"
import * as MemorySweepRepository from "./MemorySweepRepository.js"

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
