import { SqlClient, type Statement } from "@effect/sql"
import { type Notifications, Sweeps, type Tenants } from "@collector/core"
import { type Context, Effect, Layer, Option } from "effect"
import { insertEventAfter } from "./EventOutbox.js"
import { eventColumns, type EventRow, toEvent } from "./NotificationRows.js"
import { mutableColumns, sweepColumns, type SweepRow, terminalSql, toSweepTask } from "./SweepRows.js"
import { aliased, render } from "./RowRuleSql.js"
import * as WalletKeyRow from "./WalletKeyRow.js"

// The core's claim order as SQL: statuses are constant literals of the core, never input.
const claimOrderSql = `CASE d.status ${
  Sweeps.claimRanks.flatMap((statuses, rank) => statuses.map((status) => `WHEN '${status}' THEN ${rank}`)).join(" ")
} ELSE ${Sweeps.claimRanks.length} END`

// The columns core's claim rule (SweepClaimable) reads.
const claimColumns = (alias: string) =>
  aliased<Sweeps.SweepClaimable.SweepClaimFields>(alias, { status: "status", nextStepAt: "next_step_at", claimedUntil: "claimed_until" })

export const make: Effect.Effect<Context.Tag.Service<typeof Sweeps.SweepRepository>, never, SqlClient.SqlClient> = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const claimOrder = sql.unsafe(claimOrderSql)
  const columns = sql.unsafe(sweepColumns)
  const terminal = sql.unsafe(terminalSql)

  /**
   * The notification events of the given tasks, by ID. Only a terminal task has one, and it is
   * written in the transaction that made the task terminal: read after the task, it is always there.
   */
  const eventsOf = (scope: Tenants.TenantScope, tasks: ReadonlyArray<Sweeps.SweepTask>) => {
    const ids = tasks.filter((task) => Sweeps.isTerminal(task.status)).map((task) => task.id)
    return ids.length === 0
      ? Effect.succeed(new Map<string, Notifications.NotificationEvent>())
      : sql<EventRow>`
          SELECT ${sql.unsafe(eventColumns)} FROM events e
          WHERE e.id = ANY(${ids}::bigint[]) AND e.tenant_id = ${scope.tenantId} AND e.network = ${scope.network}`.pipe(
        Effect.map((rows) => new Map(rows.map((row) => [row.id, toEvent(row)])))
      )
  }
  const withWebhooks = (scope: Tenants.TenantScope, tasks: ReadonlyArray<Sweeps.SweepTask>) =>
    Effect.map(eventsOf(scope, tasks), (events): ReadonlyArray<Sweeps.SweepView> =>
      tasks.map((task) => ({ task, webhook: events.get(task.id) ?? null })))

  const listWhere = (scope: Tenants.TenantScope, query: Sweeps.SweepQuery): Statement.Fragment => {
    const clauses = [sql`t.tenant_id = ${scope.tenantId}`, sql`t.network = ${scope.network}`]
    if (query.status !== undefined) clauses.push(sql`t.status = ${query.status}`)
    if (query.walletId !== undefined) clauses.push(sql`t.wallet_id = ${query.walletId}`)
    if (query.txid !== undefined) clauses.push(sql`t.txid = ${query.txid}`)
    return sql.and(clauses)
  }

  /**
   * The compare-and-set of every step: the stored version is the task's and `worker` holds the
   * claim. Stores version + 1 and releases the claim. The table's trigger refuses (an error,
   * hence a defect) a write that would replace a stored transaction or touch a terminal task.
   */
  const casUpdate = (task: Sweeps.SweepTask, worker: string) =>
    sql<{ wallet_id: string }>`
      UPDATE sweep_tasks t SET ${sql.update(mutableColumns(task))}, version = t.version + 1, claimed_by = NULL, claimed_until = NULL
      WHERE t.id = ${task.id} AND ${render(sql, Sweeps.SweepClaimable.sweepHeldBy, { version: "t.version", claimedBy: "t.claimed_by" }, { version: task.version, holder: worker })}
      RETURNING t.wallet_id::text AS wallet_id`

  /**
   * `casUpdate`, the wallet's books and the event in one statement, so one round trip and no
   * transaction to open: the wallet's row changes and the event is written only when the task's
   * compare-and-set did, and a failure of any part (the event's unique key, say) undoes all.
   */
  const finishStatement = (outcome: Sweeps.SweepOutcome, worker: string) => {
    const books = [
      ...(outcome.collected === null ? [] : [
        sql`collected_usdt = w.collected_usdt + ${outcome.collected.amount.toString()}::numeric`,
        sql`last_collected_at = GREATEST(coalesce(w.last_collected_at, '-infinity'), ${outcome.collected.at})`
      ]),
      ...(outcome.balanceChanged ? [sql`balance_stale_from = GREATEST(coalesce(w.balance_stale_from, 0), w.balance_block + 1)`] : [])
    ]
    const booksQuery = books.length === 0
      ? sql``
      : sql`books AS (UPDATE wallets w SET ${sql.csv(books)} FROM task WHERE w.id = task.wallet_id::bigint),`
    return sql<{ wallet_id: string }>`
      WITH task AS (${casUpdate(outcome.task, worker)}),
      ${booksQuery}
      event AS (${insertEventAfter(sql, outcome.event, "task")})
      SELECT wallet_id FROM task`
  }

  return Sweeps.SweepRepository.of({
    // One statement for the batch. Drafts of wallets outside the scope (or with another address)
    // never match a wallet and get no task; the partial unique index drops a wallet that already
    // has an unfinished task, and the second draft of a wallet repeated in the batch.
    insert: (scope, drafts, at) =>
      drafts.length === 0 ? Effect.succeed([]) : sql<SweepRow>`
        INSERT INTO sweep_tasks AS t (tenant_id, network, wallet_id, address, mode, requested_amount, minimum_amount, destination, origin,
          max_wallet_trx_fee, prepare_by, created_at, updated_at, next_step_at)
        SELECT w.tenant_id, w.network, w.id, w.address, d.mode, d.requested_amount, d.minimum_amount, d.destination, d.origin,
               d.max_wallet_trx_fee, d.prepare_by, ${at}, ${at}, ${at}
        FROM unnest(${drafts.map((d) => d.walletId)}::bigint[], ${drafts.map((d) => d.address)}::text[],
                    ${drafts.map((d) => d.mode)}::text[], ${drafts.map((d) => d.requestedAmount?.toString() ?? null)}::numeric[],
                    ${drafts.map((d) => d.destination)}::text[], ${drafts.map((d) => d.origin)}::text[],
                    ${drafts.map((d) => d.maxWalletTrxFee.toString())}::numeric[],
                    ${drafts.map((d) => d.prepareBy.toISOString())}::timestamptz[],
                    ${drafts.map((d) => d.minimumAmount?.toString() ?? null)}::numeric[])
             WITH ORDINALITY AS d(wallet_id, address, mode, requested_amount, destination, origin, max_wallet_trx_fee, prepare_by,
                                  minimum_amount, n)
        JOIN wallets w ON w.id = d.wallet_id AND w.address = d.address
        WHERE w.tenant_id = ${scope.tenantId} AND w.network = ${scope.network}
        ORDER BY d.n
        ON CONFLICT (wallet_id) WHERE status NOT IN ${terminal} DO NOTHING
        RETURNING ${columns}`.pipe(
        Effect.orDie,
        Effect.map((rows) => {
          const byWallet = new Map(rows.map((row) => [row.wallet_id, toSweepTask(row)]))
          const inserted: Array<Sweeps.SweepTask> = []
          for (const draft of drafts) {
            const task = byWallet.get(draft.walletId)
            if (task !== undefined) {
              inserted.push(task)
              byWallet.delete(draft.walletId)
            }
          }
          return inserted
        })
      ),

    // One statement for the page and its total (the same snapshot), then the page's events.
    list: (scope, query) =>
      Effect.gen(function*() {
        const where = listWhere(scope, query)
        const rows = yield* sql<SweepRow & { total: string }>`
          SELECT counted.total::text AS total, page.* FROM (SELECT count(*) AS total FROM sweep_tasks t WHERE ${where}) counted
          LEFT JOIN LATERAL (
            SELECT ${columns} FROM sweep_tasks t WHERE ${where}
            ORDER BY t.id DESC LIMIT ${query.pageSize} OFFSET ${(query.page - 1) * query.pageSize}
          ) page ON true`
        const tasks = rows.filter((row) => row.id !== null).map(toSweepTask)
        return { items: yield* withWebhooks(scope, tasks), total: Number(rows[0]!.total) }
      }).pipe(Effect.orDie),

    find: (scope, id) =>
      Effect.gen(function*() {
        const [row] = yield* sql<SweepRow>`
          SELECT ${columns} FROM sweep_tasks t WHERE t.id = ${id} AND t.tenant_id = ${scope.tenantId} AND t.network = ${scope.network}`
        if (row === undefined) return Option.none<Sweeps.SweepView>()
        const [view] = yield* withWebhooks(scope, [toSweepTask(row)])
        return Option.some(view!)
      }).pipe(Effect.orDie),

    unfinishedCount: (scope) =>
      sql<{ n: string }>`
        SELECT count(*)::text AS n FROM sweep_tasks
        WHERE tenant_id = ${scope.tenantId} AND network = ${scope.network} AND status NOT IN ${terminal}`.pipe(
        Effect.orDie,
        Effect.map(([row]) => Number(row!.n))
      ),

    // The claim's index (unfinished tasks by network) finds the rows; the finished history is not read.
    statusOf: (network, id) =>
      sql<{ status: Sweeps.SweepStatus }>`SELECT status FROM sweep_tasks WHERE network = ${network} AND id = ${id}`.pipe(
        Effect.orDie,
        Effect.map((rows) => Option.fromNullable(rows[0]?.status))
      ),

    unfinishedByStatus: (network) =>
      sql<{ status: Sweeps.SweepStatus; n: string }>`
        SELECT status, count(*)::text AS n FROM sweep_tasks
        WHERE network = ${network} AND status NOT IN ${terminal} GROUP BY status ORDER BY status`.pipe(
        Effect.orDie,
        Effect.map((rows) => Object.fromEntries(rows.map((row) => [row.status, Number(row.n)])) as Partial<Record<Sweeps.SweepStatus, number>>)
      ),

    // The lock re-checks the conditions on the newest row version, so a task another sweeper
    // claimed meanwhile is skipped, never claimed twice; a locked one is skipped, never waited on.
    claim: (network, worker, now, until, limit) =>
      sql<SweepRow>`
        UPDATE sweep_tasks t SET claimed_by = ${worker}, claimed_until = ${until}
        WHERE t.id IN (
          SELECT d.id FROM sweep_tasks d
          WHERE d.network = ${network} AND ${render(sql, Sweeps.SweepClaimable.sweepClaimable, claimColumns("d"), { now })}
          ORDER BY ${claimOrder}, d.next_step_at, d.id
          LIMIT ${limit}
          FOR UPDATE SKIP LOCKED
        )
        RETURNING ${columns}`.pipe(
        Effect.orDie,
        Effect.map((rows) => rows.map(toSweepTask).sort(Sweeps.byClaimOrder))
      ),

    // The row lock makes a racing claim wait and then re-check the lease on the newest version.
    claimOne: (scope, id, statuses, worker, now, until) =>
      sql<SweepRow>`
        UPDATE sweep_tasks t SET claimed_by = ${worker}, claimed_until = ${until}
        WHERE t.id = ${id} AND t.tenant_id = ${scope.tenantId} AND t.network = ${scope.network}
          AND t.status = ANY(${statuses}::text[])
          AND ${render(sql, Sweeps.SweepClaimable.sweepUnclaimed, { claimedUntil: "t.claimed_until" }, { now })}
        RETURNING ${columns}`.pipe(
        Effect.orDie,
        Effect.map((rows) => Option.map(Option.fromNullable(rows[0]), toSweepTask))
      ),

    // Reads the unfinished tasks of the network (the due index), as the claim does.
    handBack: (network, workers) =>
      // In ID order, as the memory store answers (RETURNING follows the table's order); `back.id` keeps the numeric sort.
      workers.length === 0 ? Effect.succeed([]) : sql<{ id: Sweeps.SweepTaskId }>`
        WITH back AS (
          UPDATE sweep_tasks t SET claimed_by = NULL, claimed_until = NULL
          WHERE t.network = ${network} AND t.status NOT IN ${terminal} AND t.claimed_by = ANY(${workers}::text[])
          RETURNING t.id
        )
        SELECT back.id::text AS id FROM back ORDER BY back.id`.pipe(
        Effect.orDie,
        Effect.map((rows) => rows.map((row) => row.id))
      ),

    save: (task, worker) =>
      Sweeps.isTerminal(task.status)
        ? Effect.dieMessage(`sweep task ${task.id}: the terminal status ${task.status} is written by finish, not save`)
        : casUpdate(task, worker).pipe(Effect.orDie, Effect.map((rows) => rows.length === 1)),

    // The task's terminal state, its event and the wallet's books commit together or not at all,
    // in one statement; the outcome says what changes (the core decided it), this only writes it.
    finish: (outcome, worker) => {
      const task = outcome.task
      if (!Sweeps.isTerminal(task.status)) {
        return Effect.dieMessage(`sweep task ${task.id}: finish needs a terminal status, not ${task.status}`)
      }
      return finishStatement(outcome, worker).pipe(Effect.orDie, Effect.map((rows) => rows.length === 1))
    },

    signingKey: (walletId) =>
      sql<WalletKeyRow.WalletKeyRow>`SELECT store, key_id, sealed_key, key_label FROM wallet_keys WHERE wallet_id = ${walletId}`.pipe(
        Effect.orDie,
        Effect.flatMap(([row]) =>
          row === undefined
            ? Effect.dieMessage(`wallet ${walletId} has no stored key`)
            : Effect.sync(() => WalletKeyRow.fromRow(walletId, row))
        )
      )
  })
})

export const layer = Layer.effect(Sweeps.SweepRepository, make)
