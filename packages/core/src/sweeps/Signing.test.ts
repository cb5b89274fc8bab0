import { describe, expect, it } from "@effect/vitest"
import { Cause, Effect, Exit, Layer, Option } from "effect"
import { Chain, type ChainService } from "../chain/Chain.js"
import type { BlockRef } from "../chain/ChainModel.js"
import type { Sealed } from "../secrets/SecretBox.js"
import { Signer } from "../wallets/WalletKeys.js"
import type { ChainView } from "./ChainView.js"
import { defaultSweeperSettings } from "./SweeperSettings.js"
import { SweepRepository } from "./SweepRepository.js"
import { chainUnusedBy, preparedTask } from "./testing/StepFixtures.js"
import { sign } from "./Signing.js"

const now = new Date("2026-11-24T12:00:00.000Z")
const block = (number: bigint): BlockRef => ({
  number,
  hash: number.toString(16).padStart(16, "0") + "ab".repeat(24),
  parentHash: (number - 1n).toString(16).padStart(16, "0") + "cd".repeat(24),
  timestamp: new Date(now.getTime() - 3_000)
})

const task = preparedTask(now)

/** A chain with the wallet's energy in place that records what it is asked to build. */
const chainRecording = (builds: Array<Parameters<ChainService["buildUsdtTransfer"]>[0]>): ChainService =>
  chainUnusedBy("signing", {
    resources: () =>
      Effect.succeed({ energyLimit: 100_000n, energyUsed: 0n, freeBandwidthLimit: 600n, freeBandwidthUsed: 0n, stakedBandwidthLimit: 0n, stakedBandwidthUsed: 0n }),
    buildUsdtTransfer: (transfer) => {
      builds.push(transfer)
      return Effect.succeed({ txid: "11".repeat(32), rawDataHex: "0a02", expiration: transfer.expiration!, feeLimit: transfer.feeLimit })
    }
  })

const signingWith = (builds: Array<Parameters<ChainService["buildUsdtTransfer"]>[0]>, view: ChainView) =>
  sign(task, now, defaultSweeperSettings, view).pipe(
    Effect.provide(Layer.mergeAll(
      Layer.succeed(Chain, chainRecording(builds)),
      Layer.succeed(Signer, Signer.of({ sign: () => Effect.succeed(new Uint8Array(65).fill(9)) })),
      Layer.succeed(SweepRepository, { signingKey: () => Effect.succeed({ keyId: "k", sealed: new Uint8Array(1) } as unknown as Sealed) } as unknown as SweepRepository["Type"])
    ))
  )

const parameters = { energyFee: 100n, bandwidthFee: 1000n, freeBandwidthPerDay: 600n, activationFee: 1_100_000n }

describe("Signing", () => {
  it.effect("builds the transfer naming the pass's solidified block, and signs it", () =>
    Effect.gen(function*() {
      const builds: Array<Parameters<ChainService["buildUsdtTransfer"]>[0]> = []
      const view = { head: block(1_000_019n), solidified: block(1_000_000n), parameters }
      const result = yield* signingWith(builds, view)
      expect(builds).toHaveLength(1)
      expect(builds[0]).toMatchObject({ from: task.address, to: task.destination, amount: task.amount, feeLimit: 7_000_000n, reference: view.solidified })
      expect(builds[0]!.expiration).toEqual(new Date(view.head.timestamp.getTime() + 300_000))
      expect(result).toMatchObject({ _tag: "Save", task: { status: "signed", transaction: { txid: "11".repeat(32), signature: "09".repeat(65) } } })
    }))

  it.effect("signs nothing when the solidified block is no TaPoS reference for the head (ahead of it, or 65,536 blocks behind)", () =>
    Effect.gen(function*() {
      for (const [head, solidified] of [[1_000_000n, 1_000_001n], [1_065_536n, 1_000_000n]] as const) {
        const builds: Array<Parameters<ChainService["buildUsdtTransfer"]>[0]> = []
        const exit = yield* Effect.exit(signingWith(builds, { head: block(head), solidified: block(solidified), parameters }))
        expect(builds).toHaveLength(0)
        expect(Exit.isFailure(exit) && Option.map(Cause.dieOption(exit.cause), String)).toEqual(
          Option.some(`RuntimeException: the solidified block ${solidified} is no TaPoS reference for the head block ${head}: nothing signed`)
        )
      }
      // 65,535 blocks behind is still within the node's recent blocks.
      const builds: Array<Parameters<ChainService["buildUsdtTransfer"]>[0]> = []
      yield* signingWith(builds, { head: block(1_065_535n), solidified: block(1_000_000n), parameters })
      expect(builds).toHaveLength(1)
    }))
})
