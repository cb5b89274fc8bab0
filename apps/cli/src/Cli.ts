// The CLI proper: loaded by main.ts for every call but --help.
import { type Delegation, type Kernel, Secrets, Tenants, type Wallets } from "@collector/core"
import { OperatorAccess } from "@collector/console"
import { PgFeeLedger } from "@collector/postgres"
import { databaseLayerConfig, PgAccessTokenRepository, PgOperatorTokenRepository, PgIdempotencyStore, PgResourceAccounts, PgSealedValues, PgTenantRepository, PgWalletKeyDirectory } from "@collector/postgres"
import { AesGcmSecretBox, MasterKeyring, NodeEntropy, wrongMasterKey } from "@collector/vault"
import { Cause, Effect, Exit, Layer, Logger, LogLevel } from "effect"
import { parseArgs } from "node:util"
import { UsageError } from "./CliError.js"
import { fees } from "./commands/FeeCommands.js"
import { keyCommands } from "./commands/KeyCommands.js"
import { operatorTokenCommands } from "./commands/OperatorCommands.js"
import { resourceAccountCommands } from "./commands/ResourceAccountCommands.js"
import { resourceAccountStakeCommands } from "./commands/ResourceAccountStake.js"
import { tenantCommands } from "./commands/TenantCommands.js"
import { wallets } from "./commands/WalletKeyCommands.js"
import { usage } from "./Usage.js"

const parse = () =>
  Effect.try({
    try: () =>
      parseArgs({
        args: process.argv.slice(2),
        allowPositionals: true,
        strict: true,
        options: {
          name: { type: "string" },
          networks: { type: "string" },
          network: { type: "string" },
          tenant: { type: "string" },
          at: { type: "string" },
          rule: { type: "string" },
          store: { type: "string" },
          amount: { type: "string" },
          trx: { type: "string" },
          resource: { type: "string" },
          json: { type: "boolean" },
          "batch-size": { type: "string" },
          since: { type: "string" },
          until: { type: "string" },
          ttl: { type: "string" },
          help: { type: "boolean", short: "h" }
        }
      }),
    catch: (e) => new UsageError({ message: e instanceof Error ? e.message : String(e) })
  })

/**
 * The keys are checked against the store before any command runs: a wrong MASTER_KEY would seal a
 * new tenant's secrets under a key the service cannot open.
 */
const KeyGuard = Layer.effectDiscard(Effect.gen(function*() {
  const keyring = yield* MasterKeyring
  yield* Effect.flatMap(Secrets.MasterKeyCheck, (check) => check.verify).pipe(Effect.mapError((mismatch) => wrongMasterKey(mismatch, keyring.origin)))
}))

const AdminLive = Layer.mergeAll(Tenants.TenantAdmin.layer, Secrets.Resealer.layer, OperatorAccess.layer, KeyGuard).pipe(
  Layer.provide(Secrets.MasterKeyCheck.layer),
  Layer.provideMerge(Layer.mergeAll(
    PgTenantRepository.layer,
    PgWalletKeyDirectory.layer,
    PgAccessTokenRepository.layer,
    PgIdempotencyStore.layer,
    PgSealedValues.layer,
    PgOperatorTokenRepository.layer,
    PgResourceAccounts.layer,
    NodeEntropy.layer,
    AesGcmSecretBox.layer.pipe(Layer.provide(NodeEntropy.layer))
  )),
  // The keyring first: a missing or malformed MASTER_KEY is reported before the database is touched.
  Layer.provideMerge(databaseLayerConfig().pipe(Layer.provideMerge(MasterKeyring.layerConfig(undefined, { quiet: true }))))
)

const FeesLive = Layer.mergeAll(PgFeeLedger.layer, PgTenantRepository.layer).pipe(Layer.provideMerge(databaseLayerConfig()))

const program = Effect.gen(function*() {
  const parsed = yield* parse()
  // `operator token <command>`: one group deeper, so the token's command is read as the command.
  const [group, command] = parsed.positionals[0] === "operator" && parsed.positionals[1] === "token"
    ? ["operator", parsed.positionals[2]]
    : parsed.positionals
  if (parsed.values.help === true || group === undefined) return yield* Effect.sync(() => console.log(usage))
  // `fees` has no sub-command and reads only the ledger and tenants: no master key is needed.
  if (group === "fees" && command === undefined) return yield* fees(parsed).pipe(Effect.provide(FeesLive))
  const commands: Record<string, Record<string, unknown>> = { tenant: { ...tenantCommands, wallets }, keys: keyCommands, operator: operatorTokenCommands, "resource-account": { ...resourceAccountCommands, ...resourceAccountStakeCommands } }
  const inGroup = Object.hasOwn(commands, group) ? commands[group]! : {}
  const found = command !== undefined && Object.hasOwn(inGroup, command) ? inGroup[command] : undefined
  if (found === undefined) {
    return yield* new UsageError({ message: `unknown command: ${parsed.positionals.slice(0, 2).join(" ")}` })
  }
  const run = found as (
    p: typeof parsed
  ) => Effect.Effect<void, { readonly message: string }, Tenants.TenantAdmin | Secrets.Resealer | Tenants.TenantRepository | Wallets.WalletKeyDirectory | OperatorAccess | Delegation.ResourceAccounts | Secrets.SecretBox | Kernel.Entropy>
  yield* run(parsed).pipe(Effect.provide(AdminLive))
})

// Diagnostics go to stderr so that `--json` output on stdout stays machine-readable.
const StderrLogger = Logger.replace(Logger.defaultLogger, Logger.withConsoleError(Logger.logfmtLogger))

Effect.runPromiseExit(program.pipe(Effect.provide(StderrLogger), Logger.withMinimumLogLevel(LogLevel.Warning))).then((exit) => {
  if (Exit.isSuccess(exit)) process.exit(0)
  const failure = Cause.failureOption(exit.cause)
  if (failure._tag === "Some") {
    const error = failure.value as { _tag?: string; message?: string }
    console.error(`error: ${error.message ?? String(error)}`)
    if (error._tag === "UsageError") console.error(`\n${usage}`)
    process.exit(error._tag === "UsageError" ? 2 : 1)
  }
  console.error(Cause.pretty(exit.cause))
  process.exit(1)
})
