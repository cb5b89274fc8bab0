import { execFileSync } from "node:child_process"
import { chownSync, existsSync, mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { freePort } from "../FreePort.js"

// A real primary and a real streaming standby, made with PostgreSQL 15's own binaries the way an
// operator makes one (initdb, pg_basebackup -R, a second server on another port), for tests that
// take the primary away under the service and promote the standby.
const bin = "/usr/lib/postgresql/15/bin"

/** Whether the binaries a pair needs are installed (CI has them; a test without them skips). */
export const streamingPairAvailable = existsSync(join(bin, "initdb")) && existsSync(join(bin, "pg_basebackup"))

const asRoot = process.getuid?.() === 0

/** Runs a PostgreSQL binary; as root through runuser, since initdb and postgres refuse root. */
export const pgRun = (tool: string, args: ReadonlyArray<string>) =>
  asRoot
    ? execFileSync("runuser", ["-u", "postgres", "--", join(bin, tool), ...args], { stdio: "pipe", timeout: 60_000 })
    : execFileSync(join(bin, tool), args, { stdio: "pipe", timeout: 60_000 })

export interface StreamingPair {
  readonly dir: string
  readonly primaryPort: number
  readonly standbyPort: number
  /** A two-host URL, primary first, as an operator writes it; `query` is appended after `?`. */
  readonly url: (database: string, query: string) => string
  /** One psql statement against a server of the pair (`-Atc`): its unaligned output. */
  readonly psql: (port: number, statement: string, database?: string) => string
  /** The primary stopped as by a crash (`pg_ctl stop -m immediate`): no shutdown checkpoint. */
  readonly killPrimary: () => void
  /** `pg_ctl promote -w`: returns once the standby takes writes. */
  readonly promote: () => void
  /** Stops both (whichever still run) and removes their directory. */
  readonly remove: () => void
}

export interface StreamingPairOptions {
  /**
   * The primary acknowledges a commit only once the standby has it (`synchronous_standby_names`),
   * so nothing acknowledged is lost by the failover. Set after the standby is streaming: the
   * base backup itself would otherwise wait for a standby that does not exist yet.
   */
  readonly synchronous: boolean
}

export const startStreamingPair = async (options: StreamingPairOptions): Promise<StreamingPair> => {
  const dir = mkdtempSync(join(tmpdir(), "pg-failover-"))
  if (asRoot) chownSync(dir, Number(execFileSync("id", ["-u", "postgres"]).toString().trim()), Number(execFileSync("id", ["-g", "postgres"]).toString().trim()))
  const primaryPort = await freePort()
  const standbyPort = await freePort()
  const primary = join(dir, "primary")
  const standby = join(dir, "standby")
  const serverOptions = (port: number) => `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200`
  const psql = (port: number, statement: string, database = "postgres") =>
    pgRun("psql", ["-h", "127.0.0.1", "-p", String(port), "-U", "postgres", "-d", database, "-Atc", statement]).toString().trim()
  const remove = () => {
    for (const data of [primary, standby]) {
      try {
        pgRun("pg_ctl", ["-D", data, "-m", "immediate", "stop"])
      } catch {
        // Not started, or already stopped (the primary is killed by the test).
      }
    }
    rmSync(dir, { recursive: true, force: true })
  }
  try {
    pgRun("initdb", ["-D", primary, "-U", "postgres", "--auth=trust", "-N"])
    pgRun("pg_ctl", ["-D", primary, "-l", join(dir, "primary.log"), "-w", "-o", serverOptions(primaryPort), "start"])
    pgRun("pg_basebackup", ["-h", "127.0.0.1", "-p", String(primaryPort), "-U", "postgres", "-D", standby, "-R", "-X", "stream", "-c", "fast"])
    pgRun("pg_ctl", ["-D", standby, "-l", join(dir, "standby.log"), "-w", "-o", serverOptions(standbyPort), "start"])
    if (options.synchronous) {
      // The standby's copy of the configuration was taken before this: once promoted it waits
      // for no standby of its own.
      psql(primaryPort, "ALTER SYSTEM SET synchronous_standby_names = '*'")
      psql(primaryPort, "SELECT pg_reload_conf()")
      const until = Date.now() + 20_000
      while (psql(primaryPort, "SELECT count(*) FROM pg_stat_replication WHERE sync_state = 'sync'") !== "1") {
        if (Date.now() > until) throw new Error("the standby did not become synchronous within 20 s")
        await new Promise((resolve) => setTimeout(resolve, 100))
      }
    }
  } catch (error) {
    remove()
    throw error
  }
  return {
    dir,
    primaryPort,
    standbyPort,
    url: (database, query) => `postgres://postgres:secret@127.0.0.1:${primaryPort},127.0.0.1:${standbyPort}/${database}?${query}`,
    psql,
    killPrimary: () => void pgRun("pg_ctl", ["-D", primary, "-m", "immediate", "stop"]),
    promote: () => void pgRun("pg_ctl", ["-D", standby, "-w", "promote"]),
    remove
  }
}
