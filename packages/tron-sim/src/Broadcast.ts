import { TronAddress, TronSignature } from "@collector/tron"
import { Either, Option } from "effect"
import { executionContext } from "./BlockProduction.js"
import { execute } from "./Execution.js"
import { windowMs } from "./ResourceWindow.js"
import { MalformedRequest, rejected, type TransactionRejected } from "./SimErrors.js"
import { decodeSigned, expirationOf, ownerOf, type SimTransaction } from "./SimTransaction.js"
import { head, isKnown, type SimState } from "./SimState.js"
import { taposHolds } from "./Tapos.js"
import type { WorldState } from "./WorldState.js"

/**
 * Accepting a signed transaction into the pending pool, with java-tron's checks in java-tron's
 * order (Wallet.broadcastTransaction, then Manager.pushTransaction/processTransaction): not
 * expired by the next slot, signed by the owner, TaPoS, expiration window, not a duplicate,
 * then run against the pending state (owner exists, bandwidth, contract validation), so a
 * transaction that could not pay is refused now rather than silently dropped later.
 */

/** The longest a transaction may live: java-tron's MAXIMUM_TIME_UNTIL_EXPIRATION. */
const maximumLifetimeMs = windowMs

const hexBytes = (hex: string) => new Uint8Array(Buffer.from(hex, "hex"))

const checkSignature = (tx: SimTransaction): Either.Either<void, TransactionRejected> => {
  if (tx.signatures.length === 0) return Either.left(rejected.signature("miss sig or contract"))
  // Accounts here have the default permission: one key, the owner's.
  if (tx.signatures.length > 1) {
    return Either.left(rejected.signature(`Signature count is ${tx.signatures.length} more than key counts of permission : 1`))
  }
  const signature = tx.signatures[0]!
  if (signature.length < 130) return Either.left(rejected.signature(`Signature size is ${signature.length / 2}`))
  const owner = Option.getOrElse(TronAddress.fromHex(ownerOf(tx)), () => "")
  return Option.match(TronSignature.recoverAddress(hexBytes(tx.txid), hexBytes(signature.slice(0, 130))), {
    onNone: () => Either.left(rejected.signature("sig error")),
    onSome: (signer) =>
      signer === owner
        ? Either.void
        : Either.left(rejected.signature(`${signature} is signed by ${signer} but it is not contained of permission.`))
  })
}

/** The head's state with the pending pool applied: what a new transaction is validated against. */
export const pendingWorld = (state: SimState, now: number): WorldState =>
  state.pending.reduce((world, pending) => {
    const executed = execute(world, pending.tx, executionContext(state, now, pending.system))
    return Either.isRight(executed) ? executed.right.world : world
  }, head(state).world)

export const validate = (state: SimState, tx: SimTransaction, now: number): Either.Either<void, TransactionRejected> =>
  Either.gen(function*() {
    const headTime = head(state).timestamp
    const expiration = expirationOf(tx)
    if (expiration < headTime + state.config.blockIntervalMs) return yield* Either.left(rejected.expired())
    yield* checkSignature(tx)
    if (!taposHolds(state, tx.raw)) return yield* Either.left(rejected.tapos())
    if (expiration <= headTime || expiration > headTime + maximumLifetimeMs) return yield* Either.left(rejected.expired())
    if (isKnown(state, tx.txid)) return yield* Either.left(rejected.duplicate())
    yield* execute(pendingWorld(state, now), tx, executionContext(state, now, false))
  })

export interface BroadcastResult {
  readonly state: SimState
  readonly result: Either.Either<string, TransactionRejected | MalformedRequest>
}

/**
 * `broadcasthex`: the txid when accepted. A dropped broadcast (fault injection) is answered
 * with success and forgotten; a delayed one waits in the pool for its block.
 */
export const broadcastHex = (state: SimState, hex: string, now: number): BroadcastResult => {
  const decoded = decodeSigned(hex)
  if (Either.isLeft(decoded)) {
    const error = new MalformedRequest({ exception: "com.google.protobuf.InvalidProtocolBufferException", reason: decoded.left.reason })
    return { state, result: Either.left(error) }
  }
  return broadcastTransaction(state, decoded.right, now)
}

export const broadcastTransaction = (state: SimState, tx: SimTransaction, now: number): BroadcastResult => {
  const valid = validate(state, tx, now)
  if (Either.isLeft(valid)) return { state, result: Either.left(valid.left) }
  const { faults } = state
  if (faults.dropBroadcasts > 0) {
    return { state: { ...state, faults: { ...faults, dropBroadcasts: faults.dropBroadcasts - 1 } }, result: Either.right(tx.txid) }
  }
  const notBefore = head(state).number + 1n + BigInt(faults.delayNextBroadcast)
  return {
    state: {
      ...state,
      pending: [...state.pending, { tx, system: false, notBefore }],
      faults: { ...faults, delayNextBroadcast: 0 }
    },
    result: Either.right(tx.txid)
  }
}
