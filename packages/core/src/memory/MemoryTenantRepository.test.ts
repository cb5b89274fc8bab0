import { tenantRepositoryContract } from "../testing/TenantRepositoryContract"
import { MemoryStorage } from "./MemoryStorage"

tenantRepositoryContract("memory", MemoryStorage)
