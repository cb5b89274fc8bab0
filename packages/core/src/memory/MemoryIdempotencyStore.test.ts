import { Layer } from "effect"
import * as MemoryStorageFixtures from "../testing/MemoryStorageFixtures.js"
import { idempotencyStoreContract } from "../testing/IdempotencyStoreContract.js"
import { MemoryStorage } from "./MemoryStorage.js"

idempotencyStoreContract("memory", MemoryStorageFixtures.layer.pipe(Layer.provideMerge(MemoryStorage)))
