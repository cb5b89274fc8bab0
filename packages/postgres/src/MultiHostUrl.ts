import { Data, Either, Redacted } from "effect"
import { readFileSync } from "node:fs"

/** How a multi-host `DATABASE_URL` is wrong; the message names DATABASE_URL and never holds the password. */
export class MultiHostUrlInvalid extends Data.TaggedError("MultiHostUrlInvalid")<{ readonly message: string }> {}

/** Which server of the list a connection may use, as libpq's `target_session_attrs`. */
export type TargetSessionAttrs = "read-write" | "primary" | "any"

export interface HostPort {
  readonly host: string
  readonly port: number
}

/** TLS as libpq's `sslmode` means it: `require` encrypts without checking the certificate, `verify-*` checks it. */
export type TlsMode = "disable" | "require" | "verify-ca" | "verify-full"

export interface MultiHostUrl {
  readonly hosts: ReadonlyArray<HostPort>
  readonly user: string | undefined
  readonly password: Redacted.Redacted | undefined
  readonly database: string | undefined
  readonly targetSessionAttrs: TargetSessionAttrs
  readonly tls: TlsMode
  /** `sslrootcert`: the CA file the server's certificate is checked against (verify-ca, verify-full). */
  readonly tlsRootCertFile: string | undefined
  /** `connect_timeout` in seconds, as libpq: how long one host is tried before the next (0: no limit). */
  readonly connectTimeoutSeconds: number | undefined
}

const shape = /^(postgres|postgresql):\/\/(?:([^@/?#]*)@)?([^/?#]*)(\/[^?#]*)?(\?[^#]*)?$/

// Parameters a multi-host URL may carry; others are refused rather than silently ignored, since
// node-postgres (not libpq) opens the connections and would not apply them.
const known = new Set(["target_session_attrs", "sslmode", "sslrootcert", "connect_timeout", "application_name"])

const invalid = (reason: string) =>
  Either.left(new MultiHostUrlInvalid({ message: `DATABASE_URL ${reason}: postgres://user:password@host1:5432,host2:5432/database?target_session_attrs=read-write` }))

const decode = (text: string): string | undefined => {
  try {
    return decodeURIComponent(text)
  } catch {
    return undefined
  }
}

const parseHost = (item: string): HostPort | undefined => {
  // `[::1]:5432`, `db1:5432`, `db1` (libpq's default port).
  const bracketed = /^\[([0-9a-fA-F:.]+)\](?::(\d+))?$/.exec(item)
  const plain = /^([^:[\]]+)(?::(\d+))?$/.exec(item)
  const match = bracketed ?? plain
  if (match === null) return undefined
  const port = match[2] === undefined ? 5432 : Number(match[2])
  const host = decode(match[1]!)
  if (host === undefined || host === "" || !Number.isInteger(port) || port < 1 || port > 65535) return undefined
  return { host, port }
}

/** The URL's host list, or none when it is not a postgres:// URL at all (a single-host check then reports it). */
export const hostListOf = (text: string): ReadonlyArray<string> | undefined => {
  const match = shape.exec(text)
  return match === null ? undefined : match[3]!.split(",")
}

/** Whether `DATABASE_URL` names more than one server (the single-host path stays node-postgres' own). */
export const isMultiHostUrl = (text: string): boolean => (hostListOf(text)?.length ?? 0) > 1

/**
 * A libpq-style URL with several servers, `postgres://u:p@db1:5432,db2:5433/collector?target_session_attrs=read-write`.
 * node-postgres reads one host only, so the list and the session attributes are ours to apply.
 * With several hosts, `target_session_attrs` defaults to `read-write`: a collector only writes.
 */
export const parseMultiHostUrl = (text: string): Either.Either<MultiHostUrl, MultiHostUrlInvalid> => {
  const match = shape.exec(text)
  if (match === null) return invalid("must be a PostgreSQL URL")
  const [, , userinfo, hostList, path, query] = match
  const hosts: Array<HostPort> = []
  for (const item of hostList!.split(",")) {
    const parsed = parseHost(item)
    // The item is a host name and port, never credentials: the userinfo was split off above.
    if (parsed === undefined) return invalid(`has an invalid host "${item}" in its host list`)
    hosts.push(parsed)
  }
  let user: string | undefined
  let password: Redacted.Redacted | undefined
  if (userinfo !== undefined && userinfo !== "") {
    const colon = userinfo.indexOf(":")
    const rawUser = colon === -1 ? userinfo : userinfo.slice(0, colon)
    const decodedUser = decode(rawUser)
    const decodedPassword = colon === -1 ? "" : decode(userinfo.slice(colon + 1))
    if (decodedUser === undefined || decodedPassword === undefined) return invalid("has a user or password that is not percent-encoded correctly")
    user = decodedUser === "" ? undefined : decodedUser
    password = colon === -1 ? undefined : Redacted.make(decodedPassword)
  }
  const database = path === undefined || path === "/" ? undefined : decode(path.slice(1))
  if (path !== undefined && database === undefined) return invalid("has a database name that is not percent-encoded correctly")

  const params = new URLSearchParams(query ?? "")
  for (const key of params.keys()) {
    if (!known.has(key)) return invalid(`has the parameter "${key}", which a multi-host URL does not support (supported: ${[...known].join(", ")})`)
  }
  const attrs = params.get("target_session_attrs") ?? "read-write"
  if (attrs !== "read-write" && attrs !== "primary" && attrs !== "any") {
    return invalid(`has target_session_attrs=${attrs}; use read-write, primary or any`)
  }
  const sslmode = params.get("sslmode") ?? "disable"
  // libpq's `prefer` and `allow` fall back to plain text; node-postgres cannot, so they mean `require`.
  const tls: TlsMode | undefined = sslmode === "disable"
    ? "disable"
    : sslmode === "require" || sslmode === "prefer" || sslmode === "allow"
    ? "require"
    : sslmode === "verify-ca" || sslmode === "verify-full"
    ? sslmode
    : undefined
  if (tls === undefined) return invalid(`has sslmode=${sslmode}; use disable, require, verify-ca or verify-full`)
  const timeoutText = params.get("connect_timeout")
  const connectTimeoutSeconds = timeoutText === null ? undefined : Number(timeoutText)
  if (connectTimeoutSeconds !== undefined && (!Number.isInteger(connectTimeoutSeconds) || connectTimeoutSeconds < 0)) {
    return invalid(`has connect_timeout=${timeoutText}; use whole seconds`)
  }
  return Either.right({
    hosts,
    user,
    password,
    database,
    targetSessionAttrs: attrs,
    tls,
    tlsRootCertFile: params.get("sslrootcert") ?? undefined,
    connectTimeoutSeconds
  })
}

/**
 * node-postgres' `ssl` option for a TLS mode. The server name checked is the host each connection
 * goes to: node-postgres passes the host it connects to as `servername`.
 */
export const tlsOptionsOf = (url: MultiHostUrl): false | { rejectUnauthorized: boolean; ca?: string; checkServerIdentity?: () => undefined } => {
  if (url.tls === "disable") return false
  const ca = url.tlsRootCertFile === undefined ? undefined : readFileSync(url.tlsRootCertFile, "utf8")
  if (url.tls === "require") return { rejectUnauthorized: false }
  // verify-ca checks the chain but not the name, as libpq.
  return url.tls === "verify-ca"
    ? { rejectUnauthorized: true, ...(ca === undefined ? {} : { ca }), checkServerIdentity: () => undefined }
    : { rejectUnauthorized: true, ...(ca === undefined ? {} : { ca }) }
}
