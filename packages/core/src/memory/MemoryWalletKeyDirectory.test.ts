import { Layer } from "effect"
import * as MemoryStorageFixtures from "../testing/MemoryStorageFixtures.js"
import { walletKeyDirectoryContract } from "../testing/WalletKeyDirectoryContract.js"
import { MemoryStorage } from "./MemoryStorage.js"

walletKeyDirectoryContract("memory", MemoryStorageFixtures.layer.pipe(Layer.provideMerge(MemoryStorage)))
