import { Effect, Exit, Redacted, Scope } from "effect"
import { mkdirSync, rmSync } from "node:fs"
import { join, resolve } from "node:path"
import type { TestProject } from "vitest/node"
import { acquireEmbeddedDatabase } from "../EmbeddedDatabase"
import { freePort } from "./FreePort"
import "./ProvidedContext"


/**
 * One PostgreSQL server for the whole test run: the one named by `DATABASE_URL`, or an embedded
 * real server in a throw-away directory. Each test file then creates its own database on it.
 */
export default async function setup(project: TestProject) {
  const configured = process.env.DATABASE_URL
  if (configured !== undefined && configured !== "") {
    project.provide("databaseAdminUrl", configured)
    return
  }
  const directory = resolve(".data", `test-pg-${process.pid}`)
  rmSync(directory, { recursive: true, force: true })
  mkdirSync(resolve(".data"), { recursive: true })
  const scope = Effect.runSync(Scope.make())
  const url = await Effect.runPromise(
    acquireEmbeddedDatabase({ directory: join(directory), port: await freePort(), persistent: false }).pipe(Scope.extend(scope))
  )
  project.provide("databaseAdminUrl", Redacted.value(url))
  return async () => {
    await Effect.runPromise(Scope.close(scope, Exit.void))
    rmSync(directory, { recursive: true, force: true })
  }
}
