import { Layer } from "effect"
import * as MemoryStorageFixtures from "../testing/MemoryStorageFixtures.js"
import { accessTokenRepositoryContract } from "./AccessTokenRepositoryContract.js"
import { MemoryStorage } from "../memory/MemoryStorage.js"

accessTokenRepositoryContract("memory", MemoryStorageFixtures.layer.pipe(Layer.provideMerge(MemoryStorage)))
