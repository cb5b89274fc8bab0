import { Layer } from "effect"
import { MemoryDatabase, type MemoryDatabaseOptions } from "./MemoryDatabase"
import * as MemoryAccessTokenRepository from "./MemoryAccessTokenRepository"
import * as MemoryComponentStatus from "./MemoryComponentStatus"
import * as MemoryDeliveryLedger from "./MemoryDeliveryLedger"
import * as MemoryDepositBook from "./MemoryDepositBook"
import * as MemoryStorageProbe from "./MemoryStorageProbe"
import * as MemoryIdempotencyStore from "./MemoryIdempotencyStore"
import * as MemorySettingsRepository from "./MemorySettingsRepository"
import * as MemoryTenantRepository from "./MemoryTenantRepository"
import * as MemoryWalletRepository from "./MemoryWalletRepository"
import * as MemoryAutomationLedger from "./MemoryAutomationLedger"
import * as MemoryBalanceLedger from "./MemoryBalanceLedger"
import * as MemoryDepositRepository from "./MemoryDepositRepository"
import * as MemoryScanLedger from "./MemoryScanLedger"
import * as MemoryNotificationRepository from "./MemoryNotificationRepository"
import * as MemorySweepRepository from "./MemorySweepRepository"

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
  MemorySettingsRepository.layer,
  MemoryScanLedger.layer,
  MemoryDepositRepository.layer,
  MemoryBalanceLedger.layer,
  MemoryAutomationLedger.layer,
  MemoryNotificationRepository.layer,
  MemoryDeliveryLedger.layer,
  MemorySweepRepository.layer
)

export const MemoryStorage = ports.pipe(Layer.provideMerge(MemoryDatabase.layer))

/** The same over a database built with `options` (an observer of every change, for a simulation's trace). */
export const memoryStorageWith = (options: MemoryDatabaseOptions) => ports.pipe(Layer.provideMerge(MemoryDatabase.layerWith(options)))
