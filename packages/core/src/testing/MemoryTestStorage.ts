import { Layer } from "effect"
import { MemoryStorage } from "../memory/MemoryStorage.js"
import * as MemoryStorageFixtures from "./MemoryStorageFixtures.js"

/** What the contract suites run on in memory: every port and the fixtures, over one new memory database. */
export const MemoryTestStorage = MemoryStorageFixtures.layer.pipe(Layer.provideMerge(MemoryStorage))
