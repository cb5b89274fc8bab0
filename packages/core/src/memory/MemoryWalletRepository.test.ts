import { Layer } from "effect"
import * as MemoryStorageFixtures from "../testing/MemoryStorageFixtures"
import { walletRepositoryContract } from "../testing/WalletRepositoryContract"
import { MemoryStorage } from "./MemoryStorage"

walletRepositoryContract("memory", MemoryStorageFixtures.layer.pipe(Layer.provideMerge(MemoryStorage)))
