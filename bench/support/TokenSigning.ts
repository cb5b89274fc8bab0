import { Entropy, type GeneratedWallet } from "@collector/core"
import { Pkcs11Signer, Pkcs11Token, Pkcs11WalletKeys } from "@collector/pkcs11"
import { createTestToken, softHsmInstalled, softHsmModule } from "@collector/pkcs11/softhsm"
import { TronSignature } from "@collector/tron"
import { NodeEntropy } from "@collector/vault"
import { Effect, Option } from "effect"
import { randomBytes } from "node:crypto"

/** The key store the benchmark compares with the local signer: `--key-store pkcs11` or `BENCH_KEY_STORE=pkcs11`. */
export const benchKeyStore = (): "local" | "pkcs11" => {
  const flag = process.argv.indexOf("--key-store")
  const value = flag >= 0 ? process.argv[flag + 1] : process.env.BENCH_KEY_STORE
  if (value === undefined || value === "local") return "local"
  if (value === "pkcs11") return "pkcs11"
  throw new Error(`--key-store must be local or pkcs11, not ${value}`)
}

export interface TokenFigures {
  readonly wallets: number
  readonly sessions: number
  readonly createRate: number
  readonly signRate: number
  readonly concurrentSignRate: number
  readonly description: string
}

/**
 * Wallet creation and signing in a throw-away SoftHSM2 token: `wallets` key pairs generated in the
 * token one after another, then one signature per wallet sequentially (cold: each key found by
 * label once) and again with `sessions` at once (warm). Every signature is checked to recover to
 * its wallet's address, so a fast wrong signer cannot win.
 */
export const measureToken = (wallets: number, sessions: number) =>
  Effect.gen(function*() {
    if (!softHsmInstalled) return yield* Effect.dieMessage(`--key-store pkcs11 needs SoftHSM2 (${softHsmModule}): apt-get install softhsm2`)
    const token = createTestToken(`bench-${process.pid}`, sessions)
    const opened = yield* Effect.orDie(Pkcs11Token.open(token.settings))
    const keys = Pkcs11WalletKeys.make(opened, NodeEntropy.make satisfies Entropy["Type"])
    const signer = Pkcs11Signer.make(opened, { sign: () => Effect.dieMessage("only token wallets here") })
    let started = performance.now()
    const generated: ReadonlyArray<GeneratedWallet> = yield* Effect.replicateEffect(keys.generate, wallets)
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
    check(yield* Effect.orDie(signEach(sessions)))
    const concurrentSignRate = wallets / ((performance.now() - started) / 1000)
    token.remove()
    return { wallets, sessions, createRate, signRate, concurrentSignRate, description: opened.description } satisfies TokenFigures
  }).pipe(Effect.scoped)
