import { Layer } from "effect"
import * as MemoryStorageFixtures from "../testing/MemoryStorageFixtures.js"
import { idempotencyStoreContract } from "./IdempotencyStoreContract.js"
import { MemoryStorage } from "../memory/MemoryStorage.js"

idempotencyStoreContract("memory", MemoryStorageFixtures.layer.pipe(Layer.provideMerge(MemoryStorage)))
