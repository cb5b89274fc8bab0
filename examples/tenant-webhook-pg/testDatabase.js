// The tests' database: a throw-away one created on the server that DATABASE_URL names, dropped
// afterwards, so the tests never touch that database's own tables.
import { randomBytes } from "node:crypto"
import pg from "pg"

export const databaseUrl = process.env.DATABASE_URL || undefined

export const skipReason = databaseUrl === undefined
  ? "no DATABASE_URL: these tests need a PostgreSQL server (e.g. DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npm test)"
  : false

const onServer = async (statement) => {
  const admin = new pg.Client({ connectionString: databaseUrl, connectionTimeoutMillis: 10_000 })
  await admin.connect()
  try {
    await admin.query(statement)
  } finally {
    await admin.end()
  }
}

/** A fresh, empty database and a pool on it; `drop` ends the pool and removes the database. */
export const throwAwayDatabase = async () => {
  const name = `webhook_store_test_${randomBytes(6).toString("hex")}`
  await onServer(`CREATE DATABASE ${name}`)
  const url = new URL(databaseUrl)
  url.pathname = `/${name}`
  const pool = new pg.Pool({ connectionString: url.toString(), max: 12 })
  const drop = async () => {
    await pool.end()
    await onServer(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)
  }
  return { pool, drop }
}
