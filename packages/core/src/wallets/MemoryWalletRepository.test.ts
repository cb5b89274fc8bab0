import { Layer } from "effect"
import * as MemoryStorageFixtures from "../testing/MemoryStorageFixtures.js"
import { walletRepositoryContract } from "./WalletRepositoryContract.js"
import { MemoryStorage } from "../memory/MemoryStorage.js"

walletRepositoryContract("memory", MemoryStorageFixtures.layer.pipe(Layer.provideMerge(MemoryStorage)))
