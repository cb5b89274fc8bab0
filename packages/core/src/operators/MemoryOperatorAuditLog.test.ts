import { operatorAuditLogContract } from "./OperatorAuditLogContract.js"
import { MemoryStorage } from "../memory/MemoryStorage.js"

operatorAuditLogContract("memory", MemoryStorage)
