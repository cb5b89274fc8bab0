import { contractDocument } from "@collector/api"
import { writeFileSync } from "node:fs"
import { resolve } from "node:path"

// Regenerates the checked-in contract; a test fails while docs/openapi.json differs from this.
const target = resolve(import.meta.dirname, "../../../docs/openapi.json")
writeFileSync(target, `${JSON.stringify(contractDocument(), null, 2)}\n`)
console.log(`wrote ${target}`)
