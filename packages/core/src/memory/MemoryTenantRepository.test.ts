import { tenantRepositoryContract } from "../testing/TenantRepositoryContract.js"
import { MemoryStorage } from "./MemoryStorage.js"

tenantRepositoryContract("memory", MemoryStorage)
