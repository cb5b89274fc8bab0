import { Layer } from "effect"
import * as MemoryStorageFixtures from "../testing/MemoryStorageFixtures.js"
import { accessTokenRepositoryContract } from "../testing/AccessTokenRepositoryContract.js"
import { MemoryStorage } from "./MemoryStorage.js"

accessTokenRepositoryContract("memory", MemoryStorageFixtures.layer.pipe(Layer.provideMerge(MemoryStorage)))
