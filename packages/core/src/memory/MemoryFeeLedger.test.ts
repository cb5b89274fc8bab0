import { Layer } from "effect"
import * as MemoryStorageFixtures from "../testing/MemoryStorageFixtures.js"
import { feeLedgerContract } from "../testing/FeeLedgerContract.js"
import { MemoryStorage } from "./MemoryStorage.js"

feeLedgerContract("memory", MemoryStorageFixtures.layer.pipe(Layer.provideMerge(MemoryStorage)))
