import { Either, Option } from "effect"
import { delegation, delegationIndex } from "./DelegationRecords.js"
import { canDelegateMaxSize } from "./Delegation.js"
import { addressText, compact, errorReply } from "./NodeJson.js"
import { addressField, type Body, intField } from "./RequestBody.js"
import type { SimParameters } from "./SimConfig.js"
import { account, type WorldState } from "./WorldState.js"

/**
 * The Stake 2.0 queries a collector needs, printed as java-tron prints them (defaults left
 * out, so "nothing" is `{}`): `getdelegatedresourcev2`, `getdelegatedresourceaccountindexv2`
 * and `getcandelegatedmaxsize`.
 */

/** `{fromAddress, toAddress}` → `{"delegatedResource": [{from, to, frozen_balance_for_bandwidth, frozen_balance_for_energy}]}`. */
export const delegatedResourceV2 = (world: WorldState, body: Body, visible: boolean): unknown =>
  Either.match(Either.all({ from: addressField(body, "fromAddress", visible), to: addressField(body, "toAddress", visible) }), {
    onLeft: (error) => error,
    onRight: ({ from, to }) =>
      Option.match(delegation(world, from, to), {
        onNone: () => ({}),
        onSome: (record) => ({
          delegatedResource: [compact({
            from: addressText(record.from, visible),
            to: addressText(record.to, visible),
            frozen_balance_for_bandwidth: record.bandwidth,
            frozen_balance_for_energy: record.energy
          })]
        })
      })
  })

/** `{value}` → `{account, fromAccounts, toAccounts}`: who delegates to the account, and to whom it delegates. */
export const delegatedResourceAccountIndexV2 = (world: WorldState, body: Body, visible: boolean): unknown =>
  Either.match(addressField(body, "value", visible), {
    onLeft: (error) => error,
    onRight: (address) => {
      const index = delegationIndex(world, address)
      if (index.from.length === 0 && index.to.length === 0) return {}
      return compact({
        account: addressText(address, visible),
        fromAccounts: index.from.map((from) => addressText(from, visible)),
        toAccounts: index.to.map((to) => addressText(to, visible))
      })
    }
  })

/** `{owner_address, type}` (0 BANDWIDTH, 1 ENERGY) → `{"max_size": SUN}`; an unknown account has `{}`. */
export const canDelegatedMaxSize = (world: WorldState, body: Body, visible: boolean, parameters: SimParameters, now: number): unknown =>
  Either.match(Either.all({ owner: addressField(body, "owner_address", visible), type: intField(body, "type") }), {
    onLeft: (error) => error,
    onRight: ({ owner, type }) => {
      if (type !== 0n && type !== 1n) return errorReply("java.lang.IllegalArgumentException", `type must be 0 (BANDWIDTH) or 1 (ENERGY), got ${type}`)
      return Option.match(account(world, owner), {
        onNone: () => ({}),
        onSome: (found) => compact({ max_size: canDelegateMaxSize(found, type === 1n ? "ENERGY" : "BANDWIDTH", parameters, now) })
      })
    }
  })
