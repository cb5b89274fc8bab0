import { Layer } from "effect"
import { MemoryDatabase } from "./MemoryDatabase"
import * as MemoryComponentStatus from "./MemoryComponentStatus"
import * as MemoryDepositBook from "./MemoryDepositBook"
import * as MemorySweepRepository from "./MemorySweepRepository"

/**
 * Every storage port on one memory database, itself provided too (simulations read its tables to
 * check invariants). A new, empty store each time the layer is built.
 */
export const MemoryStorage = Layer.mergeAll(
  MemoryComponentStatus.layer,
  MemoryDepositBook.layer,
  MemorySweepRepository.layer
).pipe(Layer.provideMerge(MemoryDatabase.layer))
