import { Layer } from "effect"
import * as MemoryStorageFixtures from "../testing/MemoryStorageFixtures.js"
import { settingsRepositoryContract } from "../testing/SettingsRepositoryContract.js"
import { MemoryStorage } from "./MemoryStorage.js"

settingsRepositoryContract("memory", MemoryStorageFixtures.layer.pipe(Layer.provideMerge(MemoryStorage)))
