import { Chain } from "@collector/core"
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { fixture, fixtureText, makeFakeNode } from "./testing/FakeNode.js"
import { chainWith, useFakeNodeServer } from "./testing/TestChain.js"

const server = useFakeNodeServer()

describe("TronNodeChain accounts and parameters", () => {
  const onAccount = (node: ReturnType<typeof makeFakeNode>, replies: { account: unknown; resource: unknown; balanceOf: unknown }) => {
    node.on("/walletsolidity/getblock", fixtureText("nile_getblockbynum_66987565.header.json"))
    node.on("/walletsolidity/getaccount", replies.account)
    node.on("/wallet/getaccountresource", replies.resource)
    node.on("/walletsolidity/triggerconstantcontract", replies.balanceOf)
  }

  // What the adapter reads from the recorded account is the contract suite's (ChainContract.fixtures.test.ts).
  it.live("asks for a mainnet account with visible addresses, the solidified block first", () =>
    Effect.gen(function*() {
      const node = makeFakeNode(server)
      onAccount(node, {
        account: fixtureText("mainnet_getaccount_TZ4UXDV5_visible.response.json"),
        resource: fixtureText("mainnet_getaccountresource_TZ4UXDV5.response.json"),
        balanceOf: fixtureText("mainnet_triggerconstantcontract_usdt_balanceOf_2022.response.json")
      })
      const address = "TZ4UXDV5ZhNW7fb2AMSbgfAEZ7hWsnYS2g"
      expect((yield* (yield* chainWith("main")).account(address)).usdt).toBe(69052336071n)
      const byPath = Object.fromEntries(node.seen.map((r) => [r.path, r.body]))
      expect(byPath["/walletsolidity/getaccount"]).toEqual({ address, visible: true })
      expect(byPath["/wallet/getaccountresource"]).toEqual({ address, visible: true })
      expect(byPath["/walletsolidity/triggerconstantcontract"]).toEqual({
        owner_address: address,
        contract_address: "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t",
        function_selector: "balanceOf(address)",
        // The 20-byte account id, without the 41 the 2022 caller wrongly left in its word.
        parameter: "000000000000000000000000fd49eda0f23ff7ec1d03b52c3a45991c24cd440e",
        visible: true
      })
      // The solidified block is read before the balances.
      expect(node.paths()[0]).toBe("/walletsolidity/getblock")
    }))

  it.live("reads the recorded Nile account (hex reply) with its USDT balance", () =>
    Effect.gen(function*() {
      const node = makeFakeNode(server)
      onAccount(node, {
        account: fixtureText("nile_getaccount.response.json"),
        resource: fixtureText("nile_getaccountresource.response.json"),
        balanceOf: fixtureText("nile_triggerconstantcontract_balanceOf.response.json")
      })
      const state = yield* (yield* chainWith("nile")).account("TWAFRfZFmhVQZjxM3De7Mp5UZ9sLqWqpHp")
      expect(state).toMatchObject({ activated: true, trx: 1793227200n, usdt: 1087360000n, freeBandwidthUsed: 441n, energyLimit: 0n })
      const balanceOf = node.seen.find((r) => r.path === "/walletsolidity/triggerconstantcontract")!.body
      expect(`70a08231${balanceOf.parameter}`).toBe(
        fixture("nile_triggerconstantcontract_balanceOf.response.json").transaction.raw_data.contract[0].parameter.value.data
      )
      expect(balanceOf.contract_address).toBe("TXYZopYRdj2D9XRtbG411XZZ3kM5VkAeBf")
    }))

  it.live("keeps balances above 2^53 exact", () =>
    Effect.gen(function*() {
      const node = makeFakeNode(server)
      onAccount(node, {
        account: `{"address":"TMVQGm1qAQYVdetCeGRRkTWYYrLXuHK2HC","balance":99999999999000001}`,
        resource: {},
        balanceOf: { result: { result: true }, constant_result: ["f".repeat(64)], transaction: { ret: [{}] } }
      })
      const state = yield* (yield* chainWith()).account("TMVQGm1qAQYVdetCeGRRkTWYYrLXuHK2HC")
      expect(state.trx).toBe(99999999999000001n)
      expect(state.usdt).toBe((1n << 256n) - 1n)
    }))

  it.live("turns {\"Error\": ...} with HTTP 200 into ChainRejected, and rejects a bad address before calling", () =>
    Effect.gen(function*() {
      const node = makeFakeNode(server)
      onAccount(node, {
        account: { Error: "class java.lang.IllegalArgumentException : Invalid address" },
        resource: {},
        balanceOf: { result: { result: true }, constant_result: ["0".repeat(64)] }
      })
      const chain = yield* chainWith()
      expect(yield* chain.account("TMVQGm1qAQYVdetCeGRRkTWYYrLXuHK2HC").pipe(Effect.flip)).toEqual(
        new Chain.ChainRejected({ reason: "/walletsolidity/getaccount: IllegalArgumentException: Invalid address" })
      )
      const before = node.seen.length
      expect(yield* chain.account("TMVQGm1qAQYVdetCeGRRkTWYYrLXuHK2HX").pipe(Effect.flip)).toEqual(
        new Chain.ChainRejected({ reason: "not a TRON address: TMVQGm1qAQYVdetCeGRRkTWYYrLXuHK2HX" })
      )
      expect(node.seen.length).toBe(before)
    }))

  it.live("reads a parameter printed without value as zero, but rejects a missing one", () =>
    Effect.gen(function*() {
      const node = makeFakeNode(server)
      const params = [
        { key: "getEnergyFee", value: 100 },
        { key: "getTransactionFee", value: 1000 },
        { key: "getFreeNetLimit", value: 600 },
        { key: "getCreateNewAccountFeeInSystemContract", value: 1000000 },
        { key: "getCreateAccountFee" }
      ]
      let reply: unknown = { chainParameter: params }
      node.on("/wallet/getchainparameters", () => reply)
      const chain = yield* chainWith()
      expect((yield* chain.parameters).activationFee).toBe(1_000_000n)
      reply = { chainParameter: params.slice(1) }
      expect(yield* chain.parameters.pipe(Effect.flip)).toEqual(
        new Chain.ChainRejected({ reason: "/wallet/getchainparameters: missing getEnergyFee" })
      )
    }))
})
