import { Layer } from "effect"
import * as MemoryAutomationLedger from "./MemoryAutomationLedger"
import * as MemoryBalanceLedger from "./MemoryBalanceLedger"
import * as MemoryComponentStatus from "./MemoryComponentStatus"
import { MemoryDatabase } from "./MemoryDatabase"
import * as MemoryDepositRepository from "./MemoryDepositRepository"
import * as MemoryScanLedger from "./MemoryScanLedger"

/**
 * Every storage port on one memory database, itself provided too (simulations read its tables to
 * check invariants). A new, empty store each time the layer is built.
 */
export const MemoryStorage = Layer.mergeAll(
  MemoryScanLedger.layer,
  MemoryDepositRepository.layer,
  MemoryBalanceLedger.layer,
  MemoryAutomationLedger.layer,
  MemoryComponentStatus.layer
).pipe(Layer.provideMerge(MemoryDatabase.layer))
