import { HttpClient, HttpClientError, HttpClientResponse } from "@effect/platform"
import { Effect } from "effect"
import type { PathCounts } from "../workload/PathCounts.js"

/** How an order call is lost on its way to the provider: a gateway's 504, or the connection closed. */
export type LostOrderMode = "504" | "close"


/**
 * The line between our provider adapter and the simulated provider, where two of the provider's
 * faults happen that the provider itself cannot show: an order call lost before it reached the
 * provider (the caller sees the same 504 or closed connection as for an answer lost after the
 * order, but no order exists), and the provider's order look-up (`find`) unavailable, answering
 * 503 while orders still go through. Each armed for a number of calls; `reset` heals both.
 */
export class ProviderLine {
  private ordersLost = 0
  private lostMode: LostOrderMode = "504"
  private findsDown = 0

  private readonly orderPath: string
  private readonly findPath: string

  /** `api` is where the provider is served: `/provider/v1`, or `/provider/b/v1` for the second. */
  constructor(private readonly network: string, private readonly paths: PathCounts, api = "/provider/v1") {
    this.orderPath = `${api}/order`
    this.findPath = `${api}/order/query`
  }

  /** The next `count` order calls never reach the provider. */
  loseNextOrders(count: number, mode: LostOrderMode): void {
    this.ordersLost = count
    this.lostMode = mode
  }

  /** The next `count` look-ups answer 503 without asking the provider. */
  breakNextFinds(count: number): void {
    this.findsDown = count
  }

  /** What is armed: order calls to lose, look-ups to answer 503. */
  get armed(): { readonly ordersLost: number; readonly findsDown: number } {
    return { ordersLost: this.ordersLost, findsDown: this.findsDown }
  }

  reset(): void {
    this.ordersLost = 0
    this.findsDown = 0
  }

  /** `client` with the line's faults in front of it. */
  wrap(client: HttpClient.HttpClient): HttpClient.HttpClient {
    return HttpClient.make((request, url) => {
      if (url.pathname === this.orderPath && this.ordersLost > 0) {
        this.ordersLost--
        this.paths.count(`provider.order-lost-before.${this.network}`)
        return this.lostMode === "close"
          ? Effect.fail(new HttpClientError.RequestError({ request, reason: "Transport", description: "the connection closed before the order reached the provider" }))
          : Effect.succeed(HttpClientResponse.fromWeb(request, new Response("gateway timeout", { status: 504 })))
      }
      if (url.pathname === this.findPath && this.findsDown > 0) {
        this.findsDown--
        this.paths.count(`provider.find-down.${this.network}`)
        return Effect.succeed(HttpClientResponse.fromWeb(request, new Response("order look-up unavailable", { status: 503 })))
      }
      return client.execute(request)
    })
  }
}
