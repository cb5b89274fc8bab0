import { Context, Effect, FiberRef, Layer } from "effect"
import { Journal, MemoryTable, type TableChange } from "./MemoryTable.js"

/** Names a table and the type of its keys and rows; the table itself lives in a MemoryDatabase. */
export interface TableDef<K, V> {
  readonly name: string
  readonly _types?: (key: K) => V
}

export const tableDef = <K, V>(name: string): TableDef<K, V> => ({ name })

/**
 * The ID sequences. As in PostgreSQL, a value once drawn is never given again, even when the
 * transaction that drew it is rolled back; sweep tasks and events share `taskEvent`.
 */
export type SequenceName = "tenant" | "app" | "wallet" | "deposit" | "taskEvent" | "deliveryRound" | "deliveryAttempt" | "operatorCredential" | "operatorAudit" | "resourceAccount"

const sequenceStarts: Record<SequenceName, bigint> = {
  tenant: 1n,
  // App IDs start above a million so they never look like small row counters.
  app: 1_000_001n,
  wallet: 1n,
  deposit: 1n,
  taskEvent: 1n,
  deliveryRound: 1n,
  deliveryAttempt: 1n,
  operatorCredential: 1n,
  operatorAudit: 1n,
  resourceAccount: 1n
}

export interface MemoryDatabaseService {
  readonly table: <K, V>(def: TableDef<K, V>) => MemoryTable<K, V>
  /**
   * Runs `f` alone: no other operation interleaves with it, and if it throws every change it
   * made is undone and the throw becomes a defect (as a storage failure is). Inside a
   * transaction it joins that transaction.
   */
  readonly atomically: <A>(f: () => A) => Effect.Effect<A>
  /**
   * Runs `effect` as one transaction: other operations wait until it ends, and every change made
   * under it is undone when it fails, dies or is interrupted. Nested, it is a savepoint: only its
   * own changes are undone.
   */
  readonly transaction: <A, E, R>(effect: Effect.Effect<A, E, R>) => Effect.Effect<A, E, R>
  /** The sequence's next value, as canonical int64 text. */
  readonly nextId: (sequence: SequenceName) => string
}

/**
 * The storage of the memory adapters: typed tables shared by every adapter (so one adapter's
 * writes are the next one's reads, as in PostgreSQL), one lock that makes each operation and each
 * transaction atomic and isolated, and the ID sequences. Single-process by nature: it is the
 * reference the PostgreSQL adapters are checked against and the storage of deterministic
 * simulations, never a production store.
 */
export interface MemoryDatabaseOptions {
  /**
   * Called with every change to every table that was committed, in the order the changes were made
   * (a change a failed transaction undid is never reported): a deterministic simulation hashes them
   * into its trace.
   */
  readonly onChange?: (change: TableChange) => void
}

export const makeMemoryDatabase = (options: MemoryDatabaseOptions = {}) => Effect.gen(function*() {
  const journal = new Journal(options.onChange)
  const tables = new Map<string, MemoryTable<unknown, unknown>>()
  const sequences = new Map<SequenceName, bigint>()
  const lock = yield* Effect.makeSemaphore(1)
  // Per database: a fiber inside one world's transaction is not inside another's.
  const inside = FiberRef.unsafeMake(false)

  const table = <K, V>(def: TableDef<K, V>): MemoryTable<K, V> => {
    let found = tables.get(def.name)
    if (found === undefined) {
      found = new MemoryTable<unknown, unknown>(def.name, journal)
      tables.set(def.name, found)
    }
    return found as MemoryTable<K, V>
  }

  const runUndoable = <A>(f: () => A): A => {
    const opened = !journal.open
    if (opened) journal.begin()
    const mark = journal.mark()
    try {
      return f()
    } catch (error) {
      journal.rollbackTo(mark)
      throw error
    } finally {
      if (opened) journal.end()
    }
  }

  const atomically = <A>(f: () => A): Effect.Effect<A> =>
    Effect.flatMap(FiberRef.get(inside), (joined) =>
      joined ? Effect.sync(() => runUndoable(f)) : lock.withPermits(1)(Effect.sync(() => runUndoable(f))))

  const savepoint = <A, E, R>(effect: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> =>
    Effect.suspend(() => {
      const mark = journal.mark()
      return Effect.onExit(effect, (exit) => Effect.sync(() => exit._tag === "Failure" && journal.rollbackTo(mark)))
    })

  const transaction = <A, E, R>(effect: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> =>
    Effect.flatMap(FiberRef.get(inside), (joined) =>
      joined
        ? savepoint(effect)
        : lock.withPermits(1)(
          Effect.acquireUseRelease(
            Effect.sync(() => journal.begin()),
            () => Effect.locally(savepoint(effect), inside, true),
            () => Effect.sync(() => journal.end())
          )
        ))

  const nextId = (sequence: SequenceName): string => {
    const value = sequences.get(sequence) ?? sequenceStarts[sequence]
    sequences.set(sequence, value + 1n)
    return value.toString()
  }

  return { table, atomically, transaction, nextId } satisfies MemoryDatabaseService
})

export class MemoryDatabase extends Context.Tag("@collector/core/MemoryDatabase")<MemoryDatabase, MemoryDatabaseService>() {
  /** A new, empty database each time the layer is built. */
  static readonly layer = Layer.effect(MemoryDatabase, makeMemoryDatabase())
  /** The same, with an observer of every change (see MemoryDatabaseOptions). */
  static readonly layerWith = (options: MemoryDatabaseOptions) => Layer.effect(MemoryDatabase, makeMemoryDatabase(options))
}
