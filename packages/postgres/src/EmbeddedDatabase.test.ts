import { expect, it } from "@effect/vitest"
import { Duration, Effect, Exit, Fiber, Schedule, Scope } from "effect"
import { existsSync, mkdirSync, readFileSync, rmSync } from "node:fs"
import { join, resolve } from "node:path"
import { connect, createServer } from "node:net"
import { acquireEmbeddedDatabase } from "./EmbeddedDatabase.js"
import { freePort } from "./FreePort.js"

const listening = (port: number) =>
  Effect.async<boolean>((resume) => {
    const socket = connect(port, "127.0.0.1")
    socket.once("connect", () => (socket.destroy(), resume(Effect.succeed(true))))
    socket.once("error", () => resume(Effect.succeed(false)))
  })

/** A server this test could not stop through the scope: stopped by its pid, so that none is left behind. */
const stopLeftover = (directory: string) =>
  Effect.sync(() => {
    const pidFile = join(directory, "postmaster.pid")
    if (existsSync(pidFile)) process.kill(Number(readFileSync(pidFile, "utf8").split("\n")[0]), "SIGINT")
  })

it.live("a start interrupted half-way (Ctrl-C during initdb, a runtime disposed while it builds) still stops its server with the scope", () =>
  Effect.gen(function*() {
    const directory = resolve(".data", `embedded-interrupted-${process.pid}`)
    rmSync(directory, { recursive: true, force: true })
    mkdirSync(resolve(".data"), { recursive: true })
    const port = yield* Effect.promise(freePort)
    const scope = yield* Scope.make()
    const fiber = yield* Effect.fork(Scope.extend(acquireEmbeddedDatabase({ directory, port, persistent: false }), scope))
    // The cluster's directory appears when initdb begins: the start is under way.
    yield* Effect.sync(() => existsSync(directory)).pipe(Effect.repeat({ until: (made) => made, schedule: Schedule.spaced(Duration.millis(10)) }))
    yield* Fiber.interrupt(fiber)
    yield* Scope.close(scope, Exit.void)
    // A server started after the interruption, and owned by nobody, would be up within seconds.
    const seen = yield* listening(port).pipe(
      Effect.filterOrFail((up) => up),
      Effect.retry({ schedule: Schedule.spaced(Duration.millis(100)), times: 40 }),
      Effect.orElseSucceed(() => false)
    )
    yield* stopLeftover(directory)
    yield* Effect.sleep(Duration.millis(500)).pipe(Effect.zipRight(Effect.sync(() => rmSync(directory, { recursive: true, force: true }))))
    expect(seen).toBe(false)
  }), { timeout: 60_000 })

it.scopedLive("a port held by something that is not PostgreSQL: the start fails, and is not taken for a server started by another process", () =>
  Effect.gen(function*() {
    const directory = resolve(".data", `embedded-port-taken-${process.pid}`)
    rmSync(directory, { recursive: true, force: true })
    mkdirSync(resolve(".data"), { recursive: true })
    const port = yield* Effect.promise(freePort)
    // Every address of the port (IPv4 and IPv6), answering nothing PostgreSQL would.
    const squatter = createServer((socket) => socket.destroy())
    yield* Effect.acquireRelease(
      Effect.async<void>((resume) => void squatter.listen(port, "::", () => resume(Effect.void))),
      () => Effect.sync(() => squatter.close())
    )
    const exit = yield* Effect.exit(Effect.scoped(acquireEmbeddedDatabase({ directory, port, persistent: false })))
    yield* stopLeftover(directory)
    rmSync(directory, { recursive: true, force: true })
    expect(Exit.isFailure(exit) && String(exit.cause)).toContain("could not start the embedded PostgreSQL")
  }), { timeout: 60_000 })

it.scopedLive("a server of another data directory on the port is refused at once, naming this one's password file and the setting; the same directory is shared", () =>
  Effect.gen(function*() {
    mkdirSync(resolve(".data"), { recursive: true })
    const first = resolve(".data", `embedded-identity-a-${process.pid}`)
    const second = resolve(".data", `embedded-identity-b-${process.pid}`)
    for (const directory of [first, second]) rmSync(directory, { recursive: true, force: true })
    yield* Effect.addFinalizer(() => Effect.sync(() => [first, second].forEach((directory) => rmSync(directory, { recursive: true, force: true }))))
    const port = yield* Effect.promise(freePort)
    yield* acquireEmbeddedDatabase({ directory: first, port, persistent: false })
    // A second instance with its own DATA_DIR and the same (default) port.
    const other = yield* Effect.exit(Effect.scoped(acquireEmbeddedDatabase({ directory: second, port, persistent: false })))
    expect(Exit.isFailure(other)).toBe(true)
    const message = JSON.stringify(other)
    expect(message).toContain(`refuses this data directory's password (${second}.password)`)
    expect(message).toContain("EMBEDDED_PG_PORT")
    // The CLI beside the service: the same directory shares the running server.
    const shared = yield* Effect.exit(Effect.scoped(acquireEmbeddedDatabase({ directory: first, port, persistent: false })))
    expect(Exit.isSuccess(shared)).toBe(true)
  }), { timeout: 90_000 })
