import { Layer } from "effect"
import * as MemoryStorageFixtures from "../testing/MemoryStorageFixtures"
import { accessTokenRepositoryContract } from "../testing/AccessTokenRepositoryContract"
import { MemoryStorage } from "./MemoryStorage"

accessTokenRepositoryContract("memory", MemoryStorageFixtures.layer.pipe(Layer.provideMerge(MemoryStorage)))
