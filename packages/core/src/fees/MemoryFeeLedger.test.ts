import { Layer } from "effect"
import * as MemoryStorageFixtures from "../testing/MemoryStorageFixtures.js"
import { feeLedgerContract } from "./FeeLedgerContract.js"
import { MemoryStorage } from "../memory/MemoryStorage.js"

feeLedgerContract("memory", MemoryStorageFixtures.layer.pipe(Layer.provideMerge(MemoryStorage)))
