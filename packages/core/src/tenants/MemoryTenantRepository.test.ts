import { tenantRepositoryContract } from "./TenantRepositoryContract.js"
import { MemoryStorage } from "../memory/MemoryStorage.js"

tenantRepositoryContract("memory", MemoryStorage)
