import { Layer } from "effect"
import * as MemoryStorageFixtures from "../testing/MemoryStorageFixtures.js"
import { notificationRepositoryContract } from "./NotificationRepositoryContract.js"
import { MemoryStorage } from "../memory/MemoryStorage.js"

notificationRepositoryContract("memory", MemoryStorageFixtures.layer.pipe(Layer.provideMerge(MemoryStorage)))
