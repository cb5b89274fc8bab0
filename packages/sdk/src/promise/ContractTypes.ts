import type { Effect } from "effect"
import type { CollectorClientService } from "../CollectorEffectClient.js"

// The Promise client's types are read off the Effect client, which takes them from the
// contract's schemas: one definition, so the two clients and the server cannot drift apart.
type Api = CollectorClientService
// A method's result; the `withResponse` variant (a pair with the raw response) is left out.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Result<F> = F extends (...args: Array<any>) => Effect.Effect<infer A, infer _E, infer _R> ? Exclude<A, readonly [unknown, unknown]> : never
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Request<F> = F extends (request: infer R, ...rest: Array<any>) => unknown ? R : never
type Payload<F> = Request<F> extends { readonly payload: infer P } ? P : never
type Query<F> = Request<F> extends { readonly urlParams: infer Q } ? Q : never

/** A write's body: `request_id` may be left out, and the client then generates one (a UUID). */
export type WithRequestId<P> = Omit<P, "request_id"> & { readonly request_id?: string }
/** A list's query: `page` and `page_size` may be numbers as well as the contract's strings. */
export type Paged<Q> = Omit<Q, "page" | "page_size"> & { readonly page?: number | string; readonly page_size?: number | string }

export type AccessToken = Result<Api["auth"]["issueToken"]>
export type Health = Result<Api["system"]["health"]>

export type Wallet = Result<Api["wallets"]["createWallet"]>
export type WalletDetail = Result<Api["wallets"]["getWallet"]>
export type WalletList = Result<Api["wallets"]["listWallets"]>
export type WalletListQuery = Paged<Query<Api["wallets"]["listWallets"]>>
export type CreateWallet = WithRequestId<Payload<Api["wallets"]["createWallet"]>>
export type SelectWallets = Payload<Api["wallets"]["selectWallets"]>
export type WalletSelection = Result<Api["wallets"]["selectWallets"]>
export type PreviewWallets = Payload<Api["wallets"]["previewWallets"]>
export type WalletPreview = Result<Api["wallets"]["previewWallets"]>

export type Deposit = Result<Api["deposits"]["getDeposit"]>
export type DepositList = Result<Api["deposits"]["listDeposits"]>
export type DepositListQuery = Paged<Query<Api["deposits"]["listDeposits"]>>

export type Dashboard = Result<Api["dashboard"]["getDashboard"]>

export type Addresses = Result<Api["settings"]["getAddresses"]>
export type SetCollectionAddress = WithRequestId<Payload<Api["settings"]["setCollectionAddress"]>>
export type Automation = Result<Api["settings"]["getAutomation"]>
export type SetAutomation = WithRequestId<Payload<Api["settings"]["setAutomation"]>>
export type WebhookSettings = Result<Api["settings"]["getWebhook"]>
export type SetWebhook = WithRequestId<Payload<Api["settings"]["setWebhook"]>>

export type CreateSweeps = WithRequestId<Payload<Api["sweeps"]["createSweeps"]>>
export type SweepCreateResult = Result<Api["sweeps"]["createSweeps"]>
export type Sweep = Result<Api["sweeps"]["getSweep"]>
export type SweepList = Result<Api["sweeps"]["listSweeps"]>
export type SweepListQuery = Paged<Query<Api["sweeps"]["listSweeps"]>>
export type EstimateSweeps = Payload<Api["sweeps"]["estimateSweeps"]>
export type SweepEstimate = Result<Api["sweeps"]["estimateSweeps"]>

export type NotificationEvent = Result<Api["webhooks"]["getEvent"]>
export type NotificationList = Result<Api["webhooks"]["listEvents"]>
export type NotificationListQuery = Paged<Query<Api["webhooks"]["listEvents"]>>
export type DeliveryRoundList = Result<Api["webhooks"]["listRounds"]>
export type DeliveryRoundListQuery = Paged<Query<Api["webhooks"]["listRounds"]>>
export type DeliveryAttemptList = Result<Api["webhooks"]["listAttempts"]>
export type DeliveryAttemptListQuery = Paged<Query<Api["webhooks"]["listAttempts"]>>
export type Redeliver = WithRequestId<Payload<Api["webhooks"]["redeliver"]>>

export type ItemOf<L> = L extends { readonly items: ReadonlyArray<infer I> } ? I : never
