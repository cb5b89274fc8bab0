import { Layer } from "effect"
import { deliveryLedgerContract } from "../testing/DeliveryLedgerContract"
import * as MemoryStorageFixtures from "../testing/MemoryStorageFixtures"
import { MemoryStorage } from "./MemoryStorage"

deliveryLedgerContract("memory", MemoryStorageFixtures.layer.pipe(Layer.provideMerge(MemoryStorage)))
