import { Layer } from "effect"
import { deliveryLedgerContract } from "./DeliveryLedgerContract.js"
import * as MemoryStorageFixtures from "../testing/MemoryStorageFixtures.js"
import { MemoryStorage } from "../memory/MemoryStorage.js"

deliveryLedgerContract("memory", MemoryStorageFixtures.layer.pipe(Layer.provideMerge(MemoryStorage)))
