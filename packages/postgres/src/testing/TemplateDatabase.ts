import { Effect, Layer, Redacted } from "effect"
import { randomBytes } from "node:crypto"
import { DatabaseAtUrl } from "../Database.js"
import { databaseUrlOn, onAdmin } from "../ServerAdmin.js"

/**
 * A database migrated once for the whole test run. Each test file copies it
 * (`CREATE DATABASE … TEMPLATE`), which costs a third of creating and migrating its own. The name
 * is unique per run: two runs may share one server.
 */
export const createTemplateDatabase = (adminUrl: string) =>
  Effect.gen(function*() {
    const name = `test_template_${randomBytes(6).toString("hex")}`
    yield* onAdmin(adminUrl, `CREATE DATABASE ${name}`)
    // The migrating client's pool is closed before any copy: a template must have no connections.
    yield* Layer.build(DatabaseAtUrl(Redacted.make(databaseUrlOn(adminUrl, name)), 1)).pipe(Effect.scoped, Effect.orDie)
    return name
  })
