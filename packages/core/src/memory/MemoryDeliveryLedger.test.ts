import { Layer } from "effect"
import { deliveryLedgerContract } from "../testing/DeliveryLedgerContract.js"
import * as MemoryStorageFixtures from "../testing/MemoryStorageFixtures.js"
import { MemoryStorage } from "./MemoryStorage.js"

deliveryLedgerContract("memory", MemoryStorageFixtures.layer.pipe(Layer.provideMerge(MemoryStorage)))
