import { operatorAuditLogContract } from "../testing/OperatorAuditLogContract.js"
import { MemoryStorage } from "./MemoryStorage.js"

operatorAuditLogContract("memory", MemoryStorage)
