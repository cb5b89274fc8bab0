import { Layer } from "effect"
import * as MemoryStorageFixtures from "../testing/MemoryStorageFixtures.js"
import { walletRepositoryContract } from "../testing/WalletRepositoryContract.js"
import { MemoryStorage } from "./MemoryStorage.js"

walletRepositoryContract("memory", MemoryStorageFixtures.layer.pipe(Layer.provideMerge(MemoryStorage)))
