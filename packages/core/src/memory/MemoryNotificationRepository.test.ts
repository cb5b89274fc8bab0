import { Layer } from "effect"
import * as MemoryStorageFixtures from "../testing/MemoryStorageFixtures.js"
import { notificationRepositoryContract } from "../testing/NotificationRepositoryContract.js"
import { MemoryStorage } from "./MemoryStorage.js"

notificationRepositoryContract("memory", MemoryStorageFixtures.layer.pipe(Layer.provideMerge(MemoryStorage)))
