import { Layer } from "effect"
import * as MemoryStorageFixtures from "../testing/MemoryStorageFixtures"
import { idempotencyStoreContract } from "../testing/IdempotencyStoreContract"
import { MemoryStorage } from "./MemoryStorage"

idempotencyStoreContract("memory", MemoryStorageFixtures.layer.pipe(Layer.provideMerge(MemoryStorage)))
