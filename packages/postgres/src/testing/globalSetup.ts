import { Effect, Exit, Redacted, Scope } from "effect"
import { mkdirSync, rmSync } from "node:fs"
import { join, resolve } from "node:path"
import type { TestProject } from "vitest/node"
import { acquireEmbeddedDatabase } from "../EmbeddedDatabase.js"
import { freePort } from "../FreePort.js"
import "./ProvidedContext.js"
import { dropDatabase } from "../ServerAdmin.js"
import { createTemplateDatabase } from "./TemplateDatabase.js"

/**
 * One PostgreSQL server for the whole test run: the one named by `DATABASE_URL`, or an embedded
 * real server in a throw-away directory. It holds one migrated template database, and each test
 * file creates its own database as a copy of it. A server that cannot be reached fails the run.
 */
export default async function setup(project: TestProject) {
  const scope = Effect.runSync(Scope.make())
  const configured = process.env.DATABASE_URL
  const directory = resolve(".data", `test-pg-${process.pid}`)
  const adminUrl = configured !== undefined && configured !== ""
    ? configured
    : await Effect.runPromise(Effect.gen(function*() {
      rmSync(directory, { recursive: true, force: true })
      mkdirSync(resolve(".data"), { recursive: true })
      const port = yield* Effect.promise(freePort)
      return Redacted.value(yield* acquireEmbeddedDatabase({ directory: join(directory), port, persistent: false }))
    }).pipe(Scope.extend(scope)))
  const teardown = async () => {
    await Effect.runPromise(Scope.close(scope, Exit.void))
    rmSync(directory, { recursive: true, force: true })
  }
  try {
    const template = await Effect.runPromise(createTemplateDatabase(adminUrl))
    Effect.runSync(Scope.addFinalizer(scope, Effect.ignore(dropDatabase(adminUrl, template))))
    project.provide("databaseAdminUrl", adminUrl)
    project.provide("databaseTemplate", template)
  } catch (error) {
    await teardown()
    throw error
  }
  return teardown
}
