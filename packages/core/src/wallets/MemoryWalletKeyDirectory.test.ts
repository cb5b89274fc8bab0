import { Layer } from "effect"
import * as MemoryStorageFixtures from "../testing/MemoryStorageFixtures.js"
import { walletKeyDirectoryContract } from "./WalletKeyDirectoryContract.js"
import { MemoryStorage } from "../memory/MemoryStorage.js"

walletKeyDirectoryContract("memory", MemoryStorageFixtures.layer.pipe(Layer.provideMerge(MemoryStorage)))
