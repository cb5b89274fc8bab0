import { Layer } from "effect"
import { MemoryDatabase } from "./MemoryDatabase"
import * as MemoryComponentStatus from "./MemoryComponentStatus"
import * as MemoryDeliveryLedger from "./MemoryDeliveryLedger"
import * as MemoryDepositBook from "./MemoryDepositBook"
import * as MemoryNotificationRepository from "./MemoryNotificationRepository"

/**
 * Every storage port on one memory database, itself provided too (simulations read its tables to
 * check invariants). A new, empty store each time the layer is built.
 */
export const MemoryStorage = Layer.mergeAll(
  MemoryComponentStatus.layer,
  MemoryDepositBook.layer,
  MemoryNotificationRepository.layer,
  MemoryDeliveryLedger.layer
).pipe(Layer.provideMerge(MemoryDatabase.layer))
