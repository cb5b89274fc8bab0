import { expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { rmSync } from "node:fs"
import { resolve } from "node:path"
import { freePort, repositoryRoot, startTs, waitForHttp } from "../../../test-support/Processes.js"
import { stopped } from "../../../test-support/ChildExit.js"
import { startDatabase } from "../../../test-support/RestartableDatabase.js"

type NotReady = ReadonlyArray<{ readonly component: string; readonly network?: string; readonly reason: string }>

const notReady = async (operatorPort: number): Promise<NotReady> =>
  ((await (await fetch(`http://127.0.0.1:${operatorPort}/readyz`)).json()) as { not_ready: NotReady }).not_ready

const waitingFor = (checks: NotReady) =>
  checks.filter((check) => check.reason.startsWith("waiting for the database since ")).map((check) => `${check.component}/${check.network}`)

const until = async <A>(read: () => Promise<A>, done: (a: A) => boolean, timeoutMs = 60_000): Promise<A> => {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const value = await read()
    if (done(value) || Date.now() > deadline) return value
    await new Promise((wake) => setTimeout(wake, 250))
  }
}

it.live("while PostgreSQL restarts under a running worker, /readyz names each loop waiting for it, and none once it is back", () =>
  Effect.promise(async () => {
    const directory = resolve(repositoryRoot, ".data", `worker-db-restart-${process.pid}`)
    rmSync(directory, { recursive: true, force: true })
    const pgPort = await freePort()
    // The test owns this server, so it can stop and start it under the worker.
    let database = await startDatabase(directory, pgPort)
    const operatorPort = await freePort()
    const worker = startTs("apps/worker/src/main.ts", {
      DATABASE_URL: database.url,
      MASTER_KEY: Buffer.alloc(32, 9).toString("base64"),
      WORKER_NETWORKS: "nile",
      // No node answers: the loops still go to the database on every pass.
      TRON_NILE_NODE_URL: "http://127.0.0.1:1",
      OPERATOR_PORT: String(operatorPort)
    })
    try {
      await waitForHttp(`http://127.0.0.1:${operatorPort}/healthz`)
      expect(waitingFor(await notReady(operatorPort))).toEqual([])
      await database.stop()
      // The loops that pass every few seconds meet it first; each is named once, with its network.
      const during = await until(() => notReady(operatorPort), (checks) => ["scanner", "sweeper", "notifier"].every((c) => waitingFor(checks).includes(`${c}/nile`)))
      expect(waitingFor(during), JSON.stringify(during)).toEqual(expect.arrayContaining(["scanner/nile", "sweeper/nile", "notifier/nile"]))
      expect(new Set(waitingFor(during)).size).toBe(waitingFor(during).length)
      database = await startDatabase(directory, pgPort)
      const after = await until(() => notReady(operatorPort), (checks) => waitingFor(checks).length === 0, 90_000)
      expect(waitingFor(after), JSON.stringify(after)).toEqual([])
    } finally {
      await stopped(worker)
      await database.stop()
      rmSync(directory, { recursive: true, force: true })
      rmSync(`${directory}.password`, { force: true })
    }
  }), { timeout: 240_000 })
