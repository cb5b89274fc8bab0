import { expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { randomUUID } from "node:crypto"
import { expectError, expectOk } from "../testing/Assertions.js"
import { TestServerLive } from "../testing/TestServer.js"
import { type Client, expectInvalid, externalAddress, maxAmount, pastMaxAmount, tenantClients } from "../testing/Wallets.js"

const addresses = "/open/v1/settings/addresses"
const collection = "/open/v1/settings/addresses/collection"
const automation = "/open/v1/settings/automation"

/** The address with one character changed: still Base58, but its checksum no longer holds. */
const flipped = externalAddress.slice(0, 20) + (externalAddress[20] === "a" ? "b" : "a") + externalAddress.slice(21)
/** A well-formed Bitcoin address: valid Base58Check of 25 bytes, not a TRON address. */
const bitcoinAddress = "1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2"
const rfc3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/

const expectRecent = (time: string) => {
  expect(time).toMatch(rfc3339)
  expect(Math.abs(Date.parse(time) - Date.now())).toBeLessThan(60_000)
}

const expectConflict = (res: Parameters<typeof expectError>[0]) => {
  expectError(res, 409, "IDEMPOTENCY_CONFLICT")
  expect(res.json.message).toMatch(/^conflict: idempotency key already used with another request/)
}

const policy = {
  enabled: true,
  threshold: "250000000",
  interval_minutes: 15,
  max_wallet_trx_fee: "0",
  max_rental_cost: "20000000",
  rental_allowed: true
}

const setAutomation = (client: Client, fields: Record<string, unknown>, requestId: string = randomUUID()) =>
  client.post(automation, { ...fields, request_id: requestId })

layer(TestServerLive({ rateBurst: 1000, ratePerSecond: 1000 }), { excludeTestServices: true })("account settings", (it) => {
  it.effect("collection address: empty by default; an external address or one of the tenant's wallets", () =>
    Effect.gen(function*() {
      const { clients } = yield* tenantClients(["nile", "main"])
      const [client, main] = clients as [Client, Client]
      const other = (yield* tenantClients()).client
      expect(expectOk(yield* client.get(addresses))).toEqual({ network: "nile", collection_address: "", collection_wallet_id: null, updated_at: null })
      const external = expectOk(yield* client.setCollection(externalAddress))
      expect(Object.keys(external).sort()).toEqual(["collection_address", "collection_wallet_id", "network", "updated_at"])
      expect({ ...external, updated_at: undefined }).toEqual({ network: "nile", collection_address: externalAddress, collection_wallet_id: null, updated_at: undefined })
      expectRecent(external.updated_at)
      expect(expectOk(yield* client.get(addresses))).toEqual(external)
      const [own] = yield* client.createWallets(1)
      const internal = expectOk(yield* client.setCollection(own!.address))
      expect([internal.collection_address, internal.collection_wallet_id]).toEqual([own!.address, own!.id])
      expect(expectOk(yield* client.get(addresses))).toEqual(internal)
      // Another tenant's wallet, or ours on the other network, is an external address here.
      const [theirs] = yield* other.createWallets(1)
      const [onMain] = yield* main.createWallets(1)
      for (const address of [theirs!.address, onMain!.address]) {
        const data = expectOk(yield* client.setCollection(address))
        expect([data.collection_address, data.collection_wallet_id]).toEqual([address, null])
      }
      // Settings are per network: main is still unset.
      expect(expectOk(yield* main.get(addresses))).toEqual({ network: "main", collection_address: "", collection_wallet_id: null, updated_at: null })
    }))

  it.effect("collection address: invalid addresses and request_ids are 400 and change nothing", () =>
    Effect.gen(function*() {
      const { client } = yield* tenantClients()
      const saved = expectOk(yield* client.setCollection(externalAddress))
      const invalid = [
        flipped, externalAddress.toLowerCase(), externalAddress.toUpperCase(), "", externalAddress.slice(0, 33), `${externalAddress}1`,
        ` ${externalAddress}`, bitcoinAddress, "T0OIl" + externalAddress.slice(5), "41" + "0".repeat(40)
      ]
      for (const address of invalid) expectInvalid(yield* client.setCollection(address))
      expectInvalid(yield* client.post(collection, { address: 1, request_id: randomUUID() }))
      expectInvalid(yield* client.post(collection, { address: null, request_id: randomUUID() }))
      expectInvalid(yield* client.post(collection, { address: externalAddress }))
      expectInvalid(yield* client.post(collection, { address: externalAddress, request_id: randomUUID(), wallet_id: "1" }))
      expectInvalid(yield* client.setCollection(externalAddress, "é" + "a".repeat(13)))
      expectInvalid(yield* client.setCollection(externalAddress, "a".repeat(127) + "é"))
      expectInvalid(yield* client.post(collection, { address: externalAddress, request_id: 1234567890123456789 }))
      expect(expectOk(yield* client.get(addresses))).toEqual(saved)
      expectOk(yield* client.setCollection(externalAddress, "é" + "a".repeat(14)))
      expectOk(yield* client.setCollection(externalAddress, "a".repeat(126) + "é"))
    }))

  it.effect("collection address: a replay returns the saved response byte for byte; other parameters are a 409", () =>
    Effect.gen(function*() {
      const { client } = yield* tenantClients()
      const [own] = yield* client.createWallets(1)
      const requestId = randomUUID()
      const first = yield* client.setCollection(externalAddress, requestId)
      expectOk(first)
      const later = expectOk(yield* client.setCollection(own!.address))
      const replay = yield* client.setCollection(externalAddress, requestId)
      expect(replay.text).toBe(first.text)
      const reordered = yield* client.post(collection, `{"request_id":"${requestId}","address":"${externalAddress}"}`)
      expect(reordered.text).toBe(first.text)
      expect(expectOk(yield* client.get(addresses))).toEqual(later)
      expectConflict(yield* client.setCollection(own!.address, requestId))
      expect(expectOk(yield* client.get(addresses))).toEqual(later)
    }))

  it.effect("automation: defaults until set, then exactly what was saved", () =>
    Effect.gen(function*() {
      const { clients } = yield* tenantClients(["nile", "main"])
      const [client, main] = clients as [Client, Client]
      const defaults = {
        network: "nile", enabled: false, threshold: "100000000", interval_minutes: 60, max_wallet_trx_fee: "15000000",
        max_rental_cost: "21000000", rental_allowed: false, updated_at: null
      }
      expect(expectOk(yield* client.get(automation))).toEqual(defaults)
      // Another setting stores the scope's row first: the policy is still the default until set.
      const [wallet] = yield* client.createWallets(1)
      expectOk(yield* client.setCollection(wallet!.address))
      expect(expectOk(yield* client.get(automation))).toEqual(defaults)
      const saved = expectOk(yield* setAutomation(client, policy))
      expect(Object.keys(saved).sort()).toEqual(Object.keys(defaults).sort())
      expect({ ...saved, updated_at: null }).toEqual({ ...defaults, ...policy })
      expectRecent(saved.updated_at)
      expect(expectOk(yield* client.get(automation))).toEqual(saved)
      expect(expectOk(yield* main.get(automation))).toEqual({ ...defaults, network: "main" })
      // The bounds themselves are accepted, and amounts up to 2^256-1.
      const edges = [
        { ...policy, interval_minutes: 5 },
        { ...policy, interval_minutes: 10080, enabled: false, rental_allowed: false },
        { ...policy, threshold: "1", max_rental_cost: "0" },
        { ...policy, threshold: maxAmount, max_wallet_trx_fee: maxAmount, max_rental_cost: maxAmount }
      ]
      for (const fields of edges) {
        const data = expectOk(yield* setAutomation(client, fields))
        expect({ ...data, updated_at: null }, JSON.stringify(fields)).toEqual({ ...defaults, ...fields })
        expect(expectOk(yield* client.get(automation))).toEqual(data)
      }
    }))

  it.effect("automation: out-of-range, non-integer, missing, extra and mistyped fields are 400 and change nothing", () =>
    Effect.gen(function*() {
      const { client } = yield* tenantClients()
      const saved = expectOk(yield* setAutomation(client, policy))
      const invalid: ReadonlyArray<Record<string, unknown>> = [
        { ...policy, interval_minutes: 4 },
        { ...policy, interval_minutes: 10081 },
        { ...policy, interval_minutes: 0 },
        { ...policy, interval_minutes: 60.5 },
        { ...policy, interval_minutes: "60" },
        { ...policy, threshold: "0" },
        ...["threshold", "max_wallet_trx_fee", "max_rental_cost"].flatMap((key) =>
          ["1.5", "-1", "01", "1e6", " 1", "", "abc", pastMaxAmount, "1" + "0".repeat(78), 100].map((value) => ({ ...policy, [key]: value }))
        ),
        { ...policy, enabled: "true" },
        { ...policy, rental_allowed: 1 },
        { ...policy, enabled: null },
        ...Object.keys(policy).map((key) => Object.fromEntries(Object.entries(policy).filter(([k]) => k !== key))),
        { ...policy, extra: 1 },
        { ...policy, network: "nile" }
      ]
      for (const fields of invalid) expectInvalid(yield* setAutomation(client, fields))
      expectInvalid(yield* client.post(automation, policy))
      expectInvalid(yield* setAutomation(client, policy, "a".repeat(15)))
      expectInvalid(yield* setAutomation(client, policy, "a".repeat(129)))
      expect(expectOk(yield* client.get(automation))).toEqual(saved)
    }))

  it.effect("automation: a replay returns the saved response byte for byte; other parameters are a 409", () =>
    Effect.gen(function*() {
      const { client } = yield* tenantClients()
      const requestId = randomUUID()
      const first = yield* setAutomation(client, policy, requestId)
      expectOk(first)
      const later = expectOk(yield* setAutomation(client, { ...policy, interval_minutes: 30 }))
      expect((yield* setAutomation(client, policy, requestId)).text).toBe(first.text)
      const reordered = Object.fromEntries(Object.entries({ ...policy, request_id: requestId }).reverse())
      expect((yield* client.post(automation, reordered)).text).toBe(first.text)
      expect(expectOk(yield* client.get(automation))).toEqual(later)
      expectConflict(yield* setAutomation(client, { ...policy, enabled: false }, requestId))
      expectConflict(yield* setAutomation(client, { ...policy, threshold: "250000001" }, requestId))
      expect(expectOk(yield* client.get(automation))).toEqual(later)
    }))
})
