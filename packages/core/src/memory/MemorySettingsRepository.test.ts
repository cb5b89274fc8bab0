import { Layer } from "effect"
import * as MemoryStorageFixtures from "../testing/MemoryStorageFixtures"
import { settingsRepositoryContract } from "../testing/SettingsRepositoryContract"
import { MemoryStorage } from "./MemoryStorage"

settingsRepositoryContract("memory", MemoryStorageFixtures.layer.pipe(Layer.provideMerge(MemoryStorage)))
