import { Layer } from "effect"
import * as MemoryStorageFixtures from "../testing/MemoryStorageFixtures.js"
import { settingsRepositoryContract } from "./SettingsRepositoryContract.js"
import { MemoryStorage } from "../memory/MemoryStorage.js"

settingsRepositoryContract("memory", MemoryStorageFixtures.layer.pipe(Layer.provideMerge(MemoryStorage)))
