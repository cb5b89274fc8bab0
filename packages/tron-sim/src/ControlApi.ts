import { Effect, Either, Option } from "effect"
import { type Body, parseBody, stringField } from "./RequestBody.js"
import type { SimChain } from "./SimChain.js"
import { SimControlError } from "./SimErrors.js"
import { head, solidified } from "./SimState.js"

/**
 * The simulator's own API under `/sim/*`: POST JSON to make things happen on the network
 * (deposits, activations, rentals, blocks, forks, energy price, faults). Amounts are integers
 * in base units (SUN, or USDT's 6-decimal units) as JSON numbers or digit strings; addresses
 * Base58Check or 41-hex. Replies `{"ok": true, ...}`, or HTTP 400 `{"error": "..."}`.
 */

export interface ControlReply {
  readonly status: number
  readonly body: unknown
}

const invalid = (reason: string) => new SimControlError({ reason })

const integer = (body: Body, name: string, fallback?: bigint): Effect.Effect<bigint, SimControlError> => {
  const value = body[name]
  if (value === undefined && fallback !== undefined) return Effect.succeed(fallback)
  if (typeof value === "number" && Number.isSafeInteger(value)) return Effect.succeed(BigInt(value))
  if (typeof value === "string" && /^\d+$/.test(value)) return Effect.succeed(BigInt(value))
  return Effect.fail(invalid(`${name} must be an integer (a JSON number or a digit string)`))
}

const smallInteger = (body: Body, name: string, fallback?: number) => Effect.map(integer(body, name, fallback === undefined ? undefined : BigInt(fallback)), Number)

const text = (body: Body, name: string): Effect.Effect<string, SimControlError> => {
  const value = stringField(body, name)
  return value === "" ? Effect.fail(invalid(`${name} is required`)) : Effect.succeed(value)
}

/** An optional address field: absent or "" is None. */
const optionalText = (body: Body, name: string): string | undefined => stringField(body, name) || undefined

/** `transfers`: a non-empty array of `{to, amount}` objects. */
const transferList = (body: Body): Effect.Effect<ReadonlyArray<{ readonly to: string; readonly amount: bigint }>, SimControlError> => {
  const list = body["transfers"]
  if (!Array.isArray(list) || list.length === 0) return Effect.fail(invalid("transfers must be a non-empty array of {to, amount}"))
  return Effect.forEach(list, (item: unknown, i) =>
    typeof item === "object" && item !== null && !Array.isArray(item)
      ? Effect.all({ to: text(item as Body, "to"), amount: integer(item as Body, "amount") }).pipe(
        Effect.mapError((error) => invalid(`transfers[${i}]: ${error.reason}`))
      )
      : Effect.fail(invalid(`transfers[${i}] must be an object {to, amount}`)))
}

const txid = (effect: Effect.Effect<string, SimControlError>) => Effect.map(effect, (id) => ({ ok: true, txid: id }))
const done = <E>(effect: Effect.Effect<void, E>) => Effect.as(effect, { ok: true })

type Handler = (chain: SimChain, body: Body) => Effect.Effect<unknown, SimControlError>

const routes: Readonly<Record<string, Handler>> = {
  mint: (chain, body) => txid(Effect.flatMap(Effect.all([text(body, "to"), integer(body, "amount")]), ([to, amount]) => chain.mintUsdt(to, amount))),
  transfer: (chain, body) =>
    txid(Effect.gen(function*() {
      const token = stringField(body, "token").toUpperCase() || "USDT"
      const to = yield* text(body, "to")
      const amount = yield* integer(body, "amount")
      if (token === "TRX") {
        const from = stringField(body, "from")
        return yield* chain.transferTrx(from === "" ? { to, amount } : { from, to, amount })
      }
      if (token !== "USDT") return yield* Effect.fail(invalid(`token must be USDT or TRX, got ${token}`))
      return yield* chain.transferUsdt({ from: yield* text(body, "from"), to, amount })
    })),
  "batch-transfer": (chain, body) =>
    txid(Effect.gen(function*() {
      const transfers = yield* transferList(body)
      const from = optionalText(body, "from")
      return yield* chain.batchTransferUsdt(from === undefined ? { transfers } : { from, transfers })
    })),
  "other-token-transfer": (chain, body) =>
    txid(Effect.gen(function*() {
      const to = yield* text(body, "to")
      const amount = yield* integer(body, "amount")
      const from = optionalText(body, "from")
      return yield* chain.transferOtherToken(from === undefined ? { to, amount } : { from, to, amount })
    })),
  "mint-alongside": (chain, body) =>
    txid(Effect.flatMap(Effect.all([text(body, "to"), integer(body, "amount"), integer(body, "other_amount")]), ([to, amount, otherAmount]) =>
      chain.mintUsdtAlongsideOther({ to, amount, otherAmount }))),
  activate: (chain, body) =>
    txid(Effect.flatMap(Effect.all([text(body, "address"), integer(body, "trx", 1n)]), ([address, trx]) => chain.activate(address, trx))),
  delegate: (chain, body) => txid(Effect.flatMap(Effect.all([text(body, "to"), integer(body, "energy")]), ([to, energy]) => chain.delegateEnergy(to, energy))),
  undelegate: (chain, body) =>
    txid(Effect.flatMap(Effect.all([text(body, "to"), integer(body, "energy")]), ([to, energy]) => chain.undelegateEnergy(to, energy))),
  mine: (chain, body) =>
    Effect.flatMap(smallInteger(body, "blocks", 1), (count) =>
      Effect.map(chain.mine(count), (blocks) => ({
        ok: true,
        blocks: blocks.map((block) => ({ number: Number(block.number), blockID: block.blockId, transactions: block.transactions.length }))
      }))),
  reorg: (chain, body) =>
    Effect.flatMap(smallInteger(body, "depth"), (depth) => {
      const exclude = Array.isArray(body["exclude"]) ? body["exclude"].map(String) : []
      return done(chain.reorg(depth, exclude))
    }),
  blacklist: (chain, body) =>
    txid(Effect.gen(function*() {
      const address = yield* text(body, "address")
      const listed = body["listed"] === undefined ? true : body["listed"]
      if (typeof listed !== "boolean") return yield* Effect.fail(invalid("listed must be true or false"))
      return yield* chain.setBlackListed(address, listed)
    })),
  "energy-price": (chain, body) => done(Effect.flatMap(integer(body, "sun"), chain.setEnergyPrice)),
  fail: (chain, body) =>
    Effect.gen(function*() {
      const mode = stringField(body, "mode") || "error"
      if (mode !== "error" && mode !== "timeout") return yield* Effect.fail(invalid(`mode must be error or timeout, got ${mode}`))
      return yield* done(chain.fail(mode, yield* smallInteger(body, "ms")))
    }),
  "drop-next-broadcast": (chain, body) => done(Effect.flatMap(smallInteger(body, "count", 1), chain.dropNextBroadcast)),
  "delay-next-broadcast": (chain, body) => done(Effect.flatMap(smallInteger(body, "blocks"), chain.delayNextBroadcast)),
  "lose-next-replies": (chain, body) =>
    done(Effect.flatMap(smallInteger(body, "count", 1), (count) => chain.loseNextReplies(count, optionalText(body, "path") ?? "/wallet"))),
  "estimate-energy": (chain, body) => done(chain.setEstimateEnergy(body["enabled"] !== false)),
  state: (chain) =>
    Effect.map(chain.state, (state) => ({
      ok: true,
      network: state.config.network,
      usdtContract: state.config.usdtContract,
      otherTokenContract: state.config.otherTokenContract,
      head: { number: Number(head(state).number), blockID: head(state).blockId },
      solidified: { number: Number(solidified(state).number), blockID: solidified(state).blockId },
      pending: state.pending.length,
      energyPrice: Number(state.parameters.energyFee),
      faucet: state.faucet.address,
      issuer: state.issuer.address,
      provider: state.provider.address
    }))
}

/** The reply to `/sim/<name>`, or None for an unknown name. */
export const handleControl = (chain: SimChain, path: string, bodyText: string): Effect.Effect<Option.Option<ControlReply>> => {
  const name = path.replace(/^\/sim\//, "")
  const route = path.startsWith("/sim/") && Object.hasOwn(routes, name) ? routes[name] : undefined
  if (route === undefined) return Effect.succeed(Option.none())
  const body = parseBody(bodyText)
  if (Either.isLeft(body)) return Effect.succeed(Option.some({ status: 400, body: { error: "the body must be a JSON object" } }))
  return route(chain, body.right).pipe(
    Effect.map((reply): ControlReply => ({ status: 200, body: reply })),
    Effect.catchAll((error) => Effect.succeed<ControlReply>({ status: 400, body: { error: error.reason } })),
    Effect.map(Option.some)
  )
}
