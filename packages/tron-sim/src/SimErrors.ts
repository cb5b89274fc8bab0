import { Data } from "effect"

/**
 * A transaction the node refuses, with java-tron's broadcast `code` and `message`
 * (`SIGERROR`, `TAPOS_ERROR`, `DUP_TRANSACTION_ERROR`, `BANDWITH_ERROR`,
 * `CONTRACT_VALIDATE_ERROR`, `TRANSACTION_EXPIRATION_ERROR`, ...).
 */
export class TransactionRejected extends Data.TaggedError("TransactionRejected")<{
  readonly code: string
  readonly message: string
}> {}

/**
 * Input the node cannot even parse: java-tron answers `{"Error": "<exception class> : <text>"}`
 * rather than a `Return`, so the exception's class name is kept.
 */
export class MalformedRequest extends Data.TaggedError("MalformedRequest")<{
  readonly exception: string
  readonly reason: string
}> {
  override get message() {
    return `${this.exception}: ${this.reason}`
  }
}

/** A control-surface request that cannot be carried out (unknown account, reorg too deep, ...). */
export class SimControlError extends Data.TaggedError("SimControlError")<{ readonly reason: string }> {
  override get message() {
    return this.reason
  }
}

/** The simulator never impersonates mainnet: a service pointed at it by mistake must not see real-looking money. */
export class MainnetRefused extends Data.TaggedError("MainnetRefused")<{ readonly reason: string }> {
  override get message() {
    return this.reason
  }
}

/** The HTTP server could not listen. */
export class SimServerError extends Data.TaggedError("SimServerError")<{ readonly reason: string; readonly cause?: unknown }> {
  override get message() {
    return this.reason
  }
}

/** java-tron's broadcast codes and texts, where the simulator produces them. */
export const rejected = {
  signature: (detail: string) => new TransactionRejected({ code: "SIGERROR", message: `Validate signature error: ${detail}` }),
  tapos: () => new TransactionRejected({ code: "TAPOS_ERROR", message: "Tapos check error." }),
  expired: () => new TransactionRejected({ code: "TRANSACTION_EXPIRATION_ERROR", message: "Transaction expired" }),
  duplicate: () => new TransactionRejected({ code: "DUP_TRANSACTION_ERROR", message: "Dup transaction." }),
  bandwidth: () => new TransactionRejected({ code: "BANDWITH_ERROR", message: "Account resource insufficient error." }),
  contractValidate: (detail: string) =>
    new TransactionRejected({ code: "CONTRACT_VALIDATE_ERROR", message: `Contract validate error : ${detail}` })
} as const
