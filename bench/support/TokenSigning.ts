import type { Kernel, Wallets } from "@collector/core"
import { EcPoint, Pkcs11Signer, Pkcs11Token, Pkcs11WalletKeys } from "@collector/pkcs11"
import { createTestToken, softHsmInstalled, softHsmModule, type TestToken } from "@collector/pkcs11/softhsm"
import { TronSignature } from "@collector/tron"
import { secp256k1 } from "@noble/curves/secp256k1.js"
import { Effect, Option } from "effect"
import pkcs11js from "pkcs11js"
import { randomBytes } from "node:crypto"

/**
 * The key store of the sweeps: `--key-store local|pkcs11|both` or BENCH_KEY_STORE; `both` runs the
 * benchmark once with each, one after the other in this run, and prints them side by side.
 */
export const benchKeyStore = (): "local" | "pkcs11" | "both" => {
  const flag = process.argv.indexOf("--key-store")
  const value = flag >= 0 ? process.argv[flag + 1] : process.env.BENCH_KEY_STORE
  if (value === undefined || value === "local") return "local"
  if (value === "pkcs11" || value === "both") return value
  throw new Error(`--key-store must be local, pkcs11 or both, not ${value}`)
}

export interface TokenFigures {
  readonly wallets: number
  readonly sessions: number
  readonly createRate: number
  /** Sequential, each key's first use (found by label in the token). */
  readonly signRate: number
  /** Sequential again, the keys found (cached handles): the token's signing alone. */
  readonly warmSignRate: number
  readonly concurrentSignRate: number
  readonly description: string
}

/**
 * Wallet creation and signing in a throw-away SoftHSM2 token: `wallets` key pairs generated in the
 * token one after another, then one signature per wallet sequentially (cold: each key found by
 * label once), again sequentially (warm), and with `sessions` at once. Every signature is checked to recover to
 * its wallet's address, so a fast wrong signer cannot win.
 */
export const measureToken = (token: TestToken, wallets: number, sessions: number) =>
  Effect.gen(function*() {
    const opened = yield* Effect.orDie(Pkcs11Token.open(token.settings))
    const keys = Pkcs11WalletKeys.make(opened)
    const signer = Pkcs11Signer.make(opened, { sign: () => Effect.dieMessage("only token wallets here") })
    let started = performance.now()
    const generated: ReadonlyArray<Wallets.GeneratedWallet> = yield* Effect.orDie(Effect.forEach(Array.from({ length: wallets }, (_, i) => String(i + 1) as Kernel.WalletId), keys.generate))
    const createRate = wallets / ((performance.now() - started) / 1000)
    const hashes = generated.map(() => new Uint8Array(randomBytes(32)))
    const signEach = (concurrency: number) =>
      Effect.forEach(generated, (wallet, i) => signer.sign(wallet, hashes[i]!), { concurrency })
    const check = (signatures: ReadonlyArray<Uint8Array>) => {
      const good = signatures.filter((s, i) => Option.contains(TronSignature.recoverAddress(hashes[i]!, s), generated[i]!.address)).length
      if (good !== wallets) throw new Error(`token signatures: ${good} of ${wallets} recover to their wallet`)
    }
    started = performance.now()
    check(yield* Effect.orDie(signEach(1)))
    const signRate = wallets / ((performance.now() - started) / 1000)
    started = performance.now()
    check(yield* Effect.orDie(signEach(1)))
    const warmSignRate = wallets / ((performance.now() - started) / 1000)
    started = performance.now()
    check(yield* Effect.orDie(signEach(sessions)))
    const concurrentSignRate = wallets / ((performance.now() - started) / 1000)
    return { wallets, sessions, createRate, signRate, warmSignRate, concurrentSignRate, description: opened.description } satisfies TokenFigures
  }).pipe(Effect.scoped)

/**
 * Both tokens of a run, initialised before either is opened: SoftHSM lists the slots it finds when
 * the module initialises, once per process, so a token made later would not be seen.
 */
export const benchTokens = (sessions: number) => {
  if (!softHsmInstalled) throw new Error(`--key-store pkcs11 needs SoftHSM2 (${softHsmModule}): apt-get install softhsm2`)
  return { sweeps: createTestToken(`bench-sweeps-${process.pid}`, sessions), signing: createTestToken(`bench-${process.pid}`, sessions) }
}

/**
 * A token holding the benchmark's wallet keys, so the sweeper signs through PKCS#11. The wallets
 * are the simulator's genesis accounts, whose keys are fixed, so their keys are imported (created
 * sensitive and non-extractable, as generated ones are) rather than generated: a benchmark-only
 * shortcut; the service never imports a key. Each key is labelled `bench-<address>`.
 */
export const tokenWithKeys = (token: TestToken, keys: ReadonlyArray<{ readonly address: string; readonly secretKey: Uint8Array }>) =>
  Effect.gen(function*() {
    const opened = yield* Effect.orDie(Pkcs11Token.open(token.settings))
    yield* Effect.orDie(opened.withSession((session) =>
      Effect.forEach(keys, (key) =>
        Pkcs11Token.call(() => {
          const label = `bench-${key.address}`
          const common = [
            { type: pkcs11js.CKA_KEY_TYPE, value: pkcs11js.CKK_EC },
            { type: pkcs11js.CKA_TOKEN, value: true },
            { type: pkcs11js.CKA_EC_PARAMS, value: Buffer.from(EcPoint.secp256k1Params) },
            { type: pkcs11js.CKA_LABEL, value: label }
          ]
          session.module.C_CreateObject(session.handle, [
            ...common,
            { type: pkcs11js.CKA_CLASS, value: pkcs11js.CKO_PRIVATE_KEY },
            { type: pkcs11js.CKA_PRIVATE, value: true },
            { type: pkcs11js.CKA_SENSITIVE, value: true },
            { type: pkcs11js.CKA_EXTRACTABLE, value: false },
            { type: pkcs11js.CKA_SIGN, value: true },
            { type: pkcs11js.CKA_VALUE, value: Buffer.from(key.secretKey) }
          ])
          const point = secp256k1.getPublicKey(key.secretKey, false)
          session.module.C_CreateObject(session.handle, [
            ...common,
            { type: pkcs11js.CKA_CLASS, value: pkcs11js.CKO_PUBLIC_KEY },
            { type: pkcs11js.CKA_VERIFY, value: true },
            // DER OCTET STRING of the 65-byte point, as PKCS#11 stores CKA_EC_POINT.
            { type: pkcs11js.CKA_EC_POINT, value: Buffer.concat([Buffer.from([0x04, 0x41]), Buffer.from(point)]) }
          ])
        }), { discard: true })))
    return { opened, remove: token.remove }
  })
