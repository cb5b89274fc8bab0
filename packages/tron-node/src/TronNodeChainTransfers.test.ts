import { Chain } from "@collector/core"
import { TransactionId, TransactionRaw } from "@collector/tron"
import { describe, expect, it } from "@effect/vitest"
import { Effect, Either } from "effect"
import { fixture, fixtureText, makeFakeNode } from "./testing/FakeNode.js"
import { chainWith, hexOf, useFakeNodeServer } from "./testing/TestChain.js"

const server = useFakeNodeServer()

/** A triggersmartcontract reply for `raw_data`, consistent (bytes, JSON and txID agree) as a node would send it. */
const builtReply = (raw: TransactionRaw.RawData) => {
  const bytes = Either.getOrThrow(TransactionRaw.encodeRawData(raw))
  return { result: { result: true }, transaction: { visible: false, txID: TransactionId.compute(bytes), raw_data: raw, raw_data_hex: Buffer.from(bytes).toString("hex") } }
}

/** A reply carrying `rawDataHex` as is, with its true txID. */
const bytesReply = (rawDataHex: string, expiration = 1777447227000) => ({
  result: { result: true },
  transaction: { txID: TransactionId.compute(Buffer.from(rawDataHex, "hex")), raw_data: { expiration }, raw_data_hex: rawDataHex }
})

describe("TronNodeChain USDT transfers", () => {
  const nile = {
    from: "TWAFRfZFmhVQZjxM3De7Mp5UZ9sLqWqpHp",
    to: "TAkMvwVV7YfEEymVSP8y5e41bckH72o75d",
    amount: 100n
  }

  it.live("estimates with estimateenergy where the node enables it", () =>
    Effect.gen(function*() {
      const node = makeFakeNode(server)
      node.on("/wallet/estimateenergy", fixtureText("nile_estimateenergy_balanceOf.response.json"))
      expect(yield* (yield* chainWith("nile")).estimateTransferEnergy(nile)).toBe(1870n)
      expect(node.seen[0]!.body).toEqual({
        owner_address: nile.from,
        contract_address: "TXYZopYRdj2D9XRtbG411XZZ3kM5VkAeBf",
        function_selector: "transfer(address,uint256)",
        parameter: "000000000000000000000000088a2bfcb1c7271029fd69a66859d555608958840000000000000000000000000000000000000000000000000000000000000064",
        visible: true
      })
    }))

  it.live("falls back to triggerconstantcontract once the node says it does not estimate, and stops asking", () =>
    Effect.gen(function*() {
      const node = makeFakeNode(server)
      node.on("/wallet/estimateenergy", {
        result: { code: "CONTRACT_VALIDATE_ERROR", message: hexOf("this node does not support estimate energy") }
      })
      // energy_used already contains the penalty: 130285 = 29650 + 100635.
      node.on("/wallet/triggerconstantcontract", {
        result: { result: true },
        energy_used: 130285,
        energy_penalty: 100635,
        constant_result: ["0".repeat(63) + "1"],
        transaction: { ret: [{}] }
      })
      const chain = yield* chainWith("nile")
      expect(yield* chain.estimateTransferEnergy(nile)).toBe(130285n)
      expect(yield* chain.estimateTransferEnergy(nile)).toBe(130285n)
      expect(node.paths()).toEqual(["/wallet/estimateenergy", "/wallet/triggerconstantcontract", "/wallet/triggerconstantcontract"])
    }))

  it.live("rejects an estimate of a transfer that reverts", () =>
    Effect.gen(function*() {
      const node = makeFakeNode(server)
      node.on("/wallet/estimateenergy", { result: { code: "CONTRACT_VALIDATE_ERROR", message: "this node does not support estimate energy" } })
      node.on("/wallet/triggerconstantcontract", {
        result: { result: true, message: hexOf("REVERT opcode executed") },
        energy_used: 1000,
        constant_result: [""],
        transaction: { ret: [{ ret: "FAILED" }] }
      })
      expect(yield* (yield* chainWith("nile")).estimateTransferEnergy(nile).pipe(Effect.flip)).toEqual(
        new Chain.ChainRejected({ reason: "/wallet/triggerconstantcontract: FAILED: REVERT opcode executed" })
      )
    }))

  it.live("builds a transfer with triggersmartcontract and checks the returned bytes (recorded Nile reply)", () =>
    Effect.gen(function*() {
      const node = makeFakeNode(server)
      node.on("/wallet/triggersmartcontract", fixtureText("nile_triggersmartcontract_transfer.response.json"))
      const built = yield* (yield* chainWith("nile")).buildUsdtTransfer({ ...nile, feeLimit: 100_000_000n })
      const recorded = fixture("nile_triggersmartcontract_transfer.response.json").transaction
      expect(built).toEqual({
        txid: recorded.txID,
        rawDataHex: recorded.raw_data_hex,
        expiration: new Date(1777447227000),
        feeLimit: 100_000_000n
      })
      expect(node.seen[0]!.body).toMatchObject({ fee_limit: 100000000, call_value: 0, visible: true })
    }))

  it.live("sends what the recorded Shasta client sent, and accepts its reply", () =>
    Effect.gen(function*() {
      const node = makeFakeNode(server)
      node.on("/wallet/triggersmartcontract", fixtureText("shasta_triggersmartcontract_trc20_transfer.response.json"))
      const chain = yield* chainWith("main", { usdtContract: "TG3XXyExBkPp9nzdajDZsozEu4BkaSJozs" })
      const transfer = { from: "TEZQQ5BXq3nFKUFJknoV15CW24twzH81La", to: "TYge3Gid6vVaQvnPVRJ6SVwzC64cw2eBkN", amount: 1_000_000n }
      const built = yield* chain.buildUsdtTransfer({ ...transfer, feeLimit: 15_000_000_000n })
      expect(built.txid).toBe("99dce8bfadc68a0388d7ff28702648402d4fe3dd50e916665368c0a0b6a28273")
      expect(built.expiration).toEqual(new Date(1717760277000))
      const { extra_data: _, ...recordedRequest } = fixture("shasta_triggersmartcontract_trc20_transfer.request.json")
      expect(node.seen[0]!.body).toEqual(recordedRequest)
      // Asked for another amount, the same reply is not the requested transfer and is refused.
      const wrong = yield* chain.buildUsdtTransfer({ ...transfer, amount: 2_000_000n, feeLimit: 15_000_000_000n }).pipe(Effect.flip)
      expect(wrong).toEqual(new Chain.ChainRejected({ reason: "/wallet/triggersmartcontract: the built transaction is not the requested transfer" }))
      const otherFeeLimit = yield* chain.buildUsdtTransfer({ ...transfer, feeLimit: 30_000_000n }).pipe(Effect.flip)
      expect(otherFeeLimit.reason).toContain("not the requested transfer")
    }))

  it.live("refuses a built transaction whose txID is not the hash of its bytes", () =>
    Effect.gen(function*() {
      const node = makeFakeNode(server)
      const reply = fixture("nile_triggersmartcontract_transfer.response.json")
      reply.transaction.txID = "00".repeat(32)
      node.on("/wallet/triggersmartcontract", reply)
      const error = yield* (yield* chainWith("nile")).buildUsdtTransfer({ ...nile, feeLimit: 100_000_000n }).pipe(Effect.flip)
      expect(error.reason).toContain("is not the hash of raw_data_hex")
    }))

  it.live("refuses built bytes that are not a single TriggerSmartContract, or not raw_data at all", () =>
    Effect.gen(function*() {
      const node = makeFakeNode(server)
      const recorded = fixture("nile_triggersmartcontract_transfer.response.json").transaction
      const trx = fixture("mainnet_getblockbynum_71723395_abridged.json").transactions[0]
      const replies: ReadonlyArray<unknown> = [
        bytesReply(trx.raw_data_hex),
        bytesReply(recorded.raw_data_hex.slice(0, 40)),
        bytesReply("ff"),
        // An unknown field (99, varint 1) appended: readable protobuf, but not what the codec models.
        bytesReply(recorded.raw_data_hex + "980601")
      ]
      let i = 0
      node.on("/wallet/triggersmartcontract", () => replies[i++])
      const chain = yield* chainWith("nile")
      const build = chain.buildUsdtTransfer({ ...nile, feeLimit: 100_000_000n }).pipe(Effect.flip, Effect.map((e) => e.reason))
      expect(yield* build).toBe("/wallet/triggersmartcontract: raw_data_hex is not a single TriggerSmartContract")
      for (let n = 0; n < 3; n++) {
        expect(yield* build).toMatch(/^\/wallet\/triggersmartcontract: raw_data_hex is not a single TriggerSmartContract: /)
      }
      expect(node.seen).toHaveLength(4)
    }))

  it.live("refuses a built transfer whose call data names the recipient with a 41-prefixed word", () =>
    Effect.gen(function*() {
      const node = makeFakeNode(server)
      const recorded = fixture("nile_triggersmartcontract_transfer.response.json").transaction
      const value = recorded.raw_data.contract[0].parameter.value
      // The same recipient to the USDT contract, which reads only the low 20 bytes; but not the bytes asked for.
      const data = value.data.slice(0, 30) + "41" + value.data.slice(32)
      const raw = { ...recorded.raw_data, contract: [{ ...recorded.raw_data.contract[0], parameter: { ...recorded.raw_data.contract[0].parameter, value: { ...value, data } } }] }
      let reply: unknown = builtReply(raw)
      node.on("/wallet/triggersmartcontract", () => reply)
      const chain = yield* chainWith("nile")
      expect((yield* chain.buildUsdtTransfer({ ...nile, feeLimit: 100_000_000n }).pipe(Effect.flip)).reason).toBe(
        "/wallet/triggersmartcontract: the built transaction is not the requested transfer"
      )
      // Re-encoded from the recorded JSON, the unchanged transfer is accepted: the check above is about the data alone.
      reply = builtReply(recorded.raw_data)
      expect((yield* chain.buildUsdtTransfer({ ...nile, feeLimit: 100_000_000n })).txid).toBe(recorded.txID)
    }))

  it.live("refuses a built transfer with a call value, a token value or another fee limit", () =>
    Effect.gen(function*() {
      const node = makeFakeNode(server)
      const recorded = fixture("nile_triggersmartcontract_transfer.response.json").transaction
      const contract = recorded.raw_data.contract[0]
      const withValue = (extra: object) => ({
        ...recorded.raw_data,
        contract: [{ ...contract, parameter: { ...contract.parameter, value: { ...contract.parameter.value, ...extra } } }]
      })
      const replies = [
        builtReply(withValue({ call_value: 1 })),
        builtReply(withValue({ call_token_value: 1, token_id: 1000001 })),
        builtReply({ ...recorded.raw_data, fee_limit: 100_000_001 })
      ]
      let i = 0
      node.on("/wallet/triggersmartcontract", () => replies[i++])
      const chain = yield* chainWith("nile")
      for (let n = 0; n < replies.length; n++) {
        expect((yield* chain.buildUsdtTransfer({ ...nile, feeLimit: 100_000_000n }).pipe(Effect.flip)).reason).toBe(
          "/wallet/triggersmartcontract: the built transaction is not the requested transfer"
        )
      }
    }))

  it.live("reports builder errors of both HTTP-200 shapes, decoding hex messages", () =>
    Effect.gen(function*() {
      const node = makeFakeNode(server)
      const replies = [
        fixtureText("shasta_triggersmartcontract_error_no_contract_address.response.json"),
        { result: { code: "CONTRACT_VALIDATE_ERROR", message: hexOf("Validate TriggerSmartContract error, no OwnerAccount.") } },
        fixtureText("shasta_createtransaction_error_balance.response.json")
      ]
      let i = 0
      node.on("/wallet/triggersmartcontract", () => replies[i++])
      const chain = yield* chainWith("nile")
      const build = chain.buildUsdtTransfer({ ...nile, feeLimit: 100_000_000n }).pipe(Effect.flip, Effect.map((e) => e.reason))
      expect(yield* build).toBe(
        "/wallet/triggersmartcontract: OTHER_ERROR: class java.security.InvalidParameterException : contract_address isn't set."
      )
      expect(yield* build).toBe(
        "/wallet/triggersmartcontract: CONTRACT_VALIDATE_ERROR: Validate TriggerSmartContract error, no OwnerAccount."
      )
      expect(yield* build).toBe(
        "/wallet/triggersmartcontract: ContractValidateException: Validate TransferContract error, balance is not sufficient."
      )
    }))

  it.live("refuses amounts and fee limits it cannot encode without calling the node", () =>
    Effect.gen(function*() {
      const chain = yield* chainWith("nile")
      expect((yield* chain.buildUsdtTransfer({ ...nile, amount: -1n, feeLimit: 1n }).pipe(Effect.flip)).reason).toBe(
        "cannot encode a transfer of -1 to TAkMvwVV7YfEEymVSP8y5e41bckH72o75d"
      )
      expect((yield* chain.buildUsdtTransfer({ ...nile, feeLimit: 0n }).pipe(Effect.flip)).reason).toBe("fee limit out of range: 0")
      // Trc20Call would encode the `41…` hex form; the adapter takes Base58Check only.
      expect((yield* chain.buildUsdtTransfer({ ...nile, to: "41088a2bfcb1c7271029fd69a66859d55560895884", feeLimit: 1n }).pipe(Effect.flip)).reason)
        .toBe("cannot encode a transfer of 100 to 41088a2bfcb1c7271029fd69a66859d55560895884")
      expect((yield* chain.estimateTransferEnergy({ ...nile, to: "088a2bfcb1c7271029fd69a66859d55560895884" }).pipe(Effect.flip)).reason)
        .toBe("cannot encode a transfer of 100 to 088a2bfcb1c7271029fd69a66859d55560895884")
    }))
})
