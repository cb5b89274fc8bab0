import { Layer } from "effect"
import * as MemoryStorageFixtures from "../testing/MemoryStorageFixtures"
import { notificationRepositoryContract } from "../testing/NotificationRepositoryContract"
import { MemoryStorage } from "./MemoryStorage"

notificationRepositoryContract("memory", MemoryStorageFixtures.layer.pipe(Layer.provideMerge(MemoryStorage)))
