import { Sweeps } from "@collector/core"
import { Effect, Ref } from "effect"

/**
 * Where the database is: answering (`up`), going away right after the next claim commits
 * (`afterClaim`: the claim's reply arrives, the statements after it fail), going away as the next
 * claim commits (`claimReplyLost`: the claim is stored, its reply never arrives), or gone (`down`).
 */
export type DatabaseState = "up" | "afterClaim" | "claimReplyLost" | "down"

/**
 * The sweep repository in context, over a database that goes away as `state` says: a statement
 * run while it is gone dies as a lost connection does through the PostgreSQL adapter (a defect),
 * and stores nothing.
 */
export const flakySweepRepository = Effect.gen(function*() {
  const repo = yield* Sweeps.SweepRepository
  const state = yield* Ref.make<DatabaseState>("up")
  const lost = Effect.dieMessage("Connection terminated unexpectedly")
  const statement = <A>(run: Effect.Effect<A>): Effect.Effect<A> =>
    Effect.flatMap(Ref.get(state), (db) => (db === "down" ? lost : run))
  const flaky = Sweeps.SweepRepository.of({
    insert: (scope, drafts, at) => statement(repo.insert(scope, drafts, at)),
    list: (scope, query) => statement(repo.list(scope, query)),
    find: (scope, id) => statement(repo.find(scope, id)),
    unfinishedCount: (scope) => statement(repo.unfinishedCount(scope)),
    unfinishedByStatus: (network) => statement(repo.unfinishedByStatus(network)),
    statusOf: (network, id) => statement(repo.statusOf(network, id)),
    claim: (network, worker, now, until, limit) =>
      statement(Effect.flatMap(repo.claim(network, worker, now, until, limit), (tasks) =>
        Effect.flatMap(Ref.get(state), (db) =>
          db === "afterClaim"
            ? Effect.as(Ref.set(state, "down"), tasks)
            : db === "claimReplyLost"
            ? Effect.zipRight(Ref.set(state, "down"), lost)
            : Effect.succeed(tasks)))),
    claimOne: (scope, id, statuses, worker, now, until) => statement(repo.claimOne(scope, id, statuses, worker, now, until)),
    handBack: (network, workers) => statement(repo.handBack(network, workers)),
    save: (task, worker) => statement(repo.save(task, worker)),
    finish: (outcome, worker) => statement(repo.finish(outcome, worker)),
    signingKey: (walletId) => statement(repo.signingKey(walletId))
  })
  return { repo: flaky, state }
})
