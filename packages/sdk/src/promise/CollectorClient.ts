import { FetchHttpClient } from "@effect/platform"
import { Duration, type Effect, Exit, Layer, ManagedRuntime, Redacted } from "effect"
import { type CollectorClientService, makeCollectorClient } from "../CollectorEffectClient.js"
import type { CollectorClientOptions } from "./ClientOptions.js"
import type * as T from "./ContractTypes.js"
import { CollectorValidationError } from "./CollectorErrors.js"
import { makeReadTransport } from "./ReadTransport.js"
import { causeToCollectorError } from "./toCollectorError.js"
import { type Page, type PageIterable, pageIterable } from "./PageIterable.js"

type Api = CollectorClientService

const withRequestId = <P extends { readonly request_id?: string }>(payload: P): Omit<P, "request_id"> & { readonly request_id: string } => ({
  ...payload,
  request_id: payload.request_id ?? globalThis.crypto.randomUUID()
})

// The contract's query values are text; page numbers may be given as numbers.
const queryText = <Q extends object>(query: Q | undefined): Record<string, string> => {
  const text: Record<string, string> = {}
  for (const [key, value] of Object.entries(query ?? {})) {
    if (value !== undefined) text[key] = typeof value === "number" ? String(value) : (value as string)
  }
  return text
}

// A path ID is checked before it goes into a URL: digits only, so nothing can change the path.
const objectId = (id: string): string => {
  if (typeof id !== "string" || !/^[1-9][0-9]{0,18}$/.test(id)) throw new CollectorValidationError(`id must be a positive decimal integer string, got ${JSON.stringify(id)}`)
  return id
}

const firstPageOf = (query: { readonly page?: number | string } | undefined) => (query?.page === undefined || query.page === "" ? 1 : Number(query.page))

const checkOptions = (options: CollectorClientOptions) => {
  if (options === null || typeof options !== "object") throw new TypeError("CollectorClient: options { baseUrl, appId, appSecret } are required")
  if (typeof options.baseUrl !== "string" || !URL.canParse(options.baseUrl)) throw new TypeError("CollectorClient: baseUrl must be an absolute URL")
  if (typeof options.appId !== "string" || options.appId === "") throw new TypeError("CollectorClient: appId must be a non-empty string")
  const secret = Redacted.isRedacted(options.appSecret) ? Redacted.value(options.appSecret) : options.appSecret
  if (typeof secret !== "string" || secret === "") throw new TypeError("CollectorClient: appSecret must be a non-empty string")
  for (const name of ["timeoutMs", "maxRetries", "tokenRefreshMarginMs"] as const) {
    const value = options[name]
    if (value !== undefined && !(Number.isInteger(value) && value >= 0)) throw new TypeError(`CollectorClient: ${name} must be a non-negative integer`)
  }
  return secret
}

/**
 * The tenant API as Promises: one async method per operation, grouped as the contract groups
 * them. It signs every request, fetches and renews the access token, retries timeouts, network
 * errors, 429 and 503 with back-off, and gives every write a `request_id` unless one is passed
 * (a retried write is answered from the saved result). Every failure is a `CollectorError`.
 * Amounts, IDs and times are the contract's strings.
 */
export class CollectorClient {
  readonly #runtime: ManagedRuntime.ManagedRuntime<import("@effect/platform").HttpClient.HttpClient, never>
  readonly #api: Promise<Api>
  readonly #reads: ReturnType<typeof makeReadTransport>

  constructor(options: CollectorClientOptions) {
    const secret = checkOptions(options)
    const http = options.fetch === undefined
      ? FetchHttpClient.layer
      : FetchHttpClient.layer.pipe(Layer.provide(Layer.succeed(FetchHttpClient.Fetch, options.fetch)))
    this.#runtime = ManagedRuntime.make(http)
    this.#reads = makeReadTransport({
      baseUrl: options.baseUrl.replace(/\/+$/, ""),
      appId: options.appId,
      secret,
      timeoutMs: options.timeoutMs ?? 20_000,
      maxRetries: options.maxRetries ?? 3,
      tokenRefreshMarginMs: options.tokenRefreshMarginMs ?? 300_000,
      fetch: options.fetch ?? globalThis.fetch
    })
    this.#api = this.#runtime.runPromise(makeCollectorClient({
      baseUrl: options.baseUrl.replace(/\/+$/, ""),
      appId: options.appId,
      appSecret: Redacted.make(secret),
      ...(options.timeoutMs === undefined ? {} : { timeout: Duration.millis(options.timeoutMs) }),
      ...(options.maxRetries === undefined ? {} : { maxRetries: options.maxRetries }),
      ...(options.tokenRefreshMarginMs === undefined ? {} : { tokenRefreshMargin: Duration.millis(options.tokenRefreshMarginMs) })
    }))
  }

  async #run<A>(operation: (api: Api) => Effect.Effect<A, unknown>): Promise<A> {
    const api = await this.#api
    const exit = await this.#runtime.runPromiseExit(operation(api))
    if (Exit.isSuccess(exit)) return exit.value
    throw causeToCollectorError(exit.cause)
  }

  #list<L extends Page<T.ItemOf<L>>>(query: { readonly page?: number | string } | undefined, fetch: (page: string) => Promise<L>): PageIterable<T.ItemOf<L>, L> {
    return pageIterable<T.ItemOf<L>, L>(firstPageOf(query), (page) => fetch(String(page)))
  }

  // Reads go the short way (ReadTransport.ts); their types are the Effect client's, from the schemas.
  #read<A>(path: string, query: Record<string, string> = {}): Promise<A> {
    return this.#reads.get(path, query) as Promise<A>
  }

  /** Frees what the client holds; calls after it fail. */
  async close(): Promise<void> {
    await this.#runtime.dispose()
  }

  readonly auth = {
    /** Issues an access token; the client does this by itself, so call it only to check credentials. */
    issueToken: (): Promise<T.AccessToken> => this.#run((api) => api.auth.issueToken())
  }

  readonly system = {
    health: (): Promise<T.Health> => this.#run((api) => api.system.health()),
    openapi: (): Promise<unknown> => this.#run((api) => api.system.openapi())
  }

  readonly wallets = {
    /** Creates a wallet; resolves to it (a repeat of the same `request_id` resolves to the same wallet). */
    create: (body: T.CreateWallet): Promise<T.Wallet> => this.#run((api) => api.wallets.createWallet({ payload: withRequestId(body) })),
    get: async (id: string): Promise<T.WalletDetail> => this.#read(`/open/v1/wallets/${objectId(id)}`),
    /** Every wallet matching `query`, over every page: `for await (const wallet of client.wallets.list({...}))`. */
    list: (query?: T.WalletListQuery) => this.#list(query, (page) => this.wallets.listPage({ ...query, page })),
    /** One page of the list, as the contract answers it. */
    listPage: (query?: T.WalletListQuery): Promise<T.WalletList> =>
      this.#read("/open/v1/wallets", queryText(query)),
    select: (body: T.SelectWallets = {} as T.SelectWallets): Promise<T.WalletSelection> => this.#run((api) => api.wallets.selectWallets({ payload: body })),
    preview: (body: T.PreviewWallets): Promise<T.WalletPreview> => this.#run((api) => api.wallets.previewWallets({ payload: body }))
  }

  readonly deposits = {
    get: async (id: string): Promise<T.Deposit> => this.#read(`/open/v1/deposits/${objectId(id)}`),
    list: (query?: T.DepositListQuery) => this.#list(query, (page) => this.deposits.listPage({ ...query, page })),
    listPage: (query?: T.DepositListQuery): Promise<T.DepositList> =>
      this.#read("/open/v1/deposits", queryText(query))
  }

  readonly dashboard = {
    get: (): Promise<T.Dashboard> => this.#read("/open/v1/dashboard")
  }

  readonly settings = {
    getAddresses: (): Promise<T.Addresses> => this.#read("/open/v1/settings/addresses"),
    setCollectionAddress: (body: T.SetCollectionAddress): Promise<T.Addresses> =>
      this.#run((api) => api.settings.setCollectionAddress({ payload: withRequestId(body) })),
    getAutomation: (): Promise<T.Automation> => this.#read("/open/v1/settings/automation"),
    setAutomation: (body: T.SetAutomation): Promise<T.Automation> => this.#run((api) => api.settings.setAutomation({ payload: withRequestId(body) })),
    getWebhook: (): Promise<T.WebhookSettings> => this.#read("/open/v1/settings/webhook"),
    setWebhook: (body: T.SetWebhook): Promise<T.WebhookSettings> => this.#run((api) => api.settings.setWebhook({ payload: withRequestId(body) }))
  }

  readonly sweeps = {
    /** Creates sweep tasks; a per-wallet refusal is an item of the result, not a rejection. */
    create: (body: T.CreateSweeps): Promise<T.SweepCreateResult> => this.#run((api) => api.sweeps.createSweeps({ payload: withRequestId(body) })),
    get: async (id: string): Promise<T.Sweep> => this.#read(`/open/v1/sweeps/${objectId(id)}`),
    list: (query?: T.SweepListQuery) => this.#list(query, (page) => this.sweeps.listPage({ ...query, page })),
    listPage: (query?: T.SweepListQuery): Promise<T.SweepList> => this.#read("/open/v1/sweeps", queryText(query)),
    estimate: (body: T.EstimateSweeps): Promise<T.SweepEstimate> => this.#run((api) => api.sweeps.estimateSweeps({ payload: body }))
  }

  readonly webhooks = {
    get: async (id: string): Promise<T.NotificationEvent> => this.#read(`/open/v1/webhooks/${objectId(id)}`),
    list: (query?: T.NotificationListQuery) => this.#list(query, (page) => this.webhooks.listPage({ ...query, page })),
    listPage: (query?: T.NotificationListQuery): Promise<T.NotificationList> =>
      this.#read("/open/v1/webhooks", queryText(query)),
    listRounds: (id: string, query?: T.DeliveryRoundListQuery) => this.#list(query, (page) => this.webhooks.listRoundsPage(id, { ...query, page })),
    listRoundsPage: async (id: string, query?: T.DeliveryRoundListQuery): Promise<T.DeliveryRoundList> =>
      this.#read(`/open/v1/webhooks/${objectId(id)}/rounds`, queryText(query)),
    listAttempts: (id: string, query?: T.DeliveryAttemptListQuery) =>
      this.#list(query, (page) => this.webhooks.listAttemptsPage(id, { ...query, page })),
    listAttemptsPage: async (id: string, query?: T.DeliveryAttemptListQuery): Promise<T.DeliveryAttemptList> =>
      this.#read(`/open/v1/webhooks/${objectId(id)}/attempts`, queryText(query)),
    /** Starts a new delivery round of a failed event. */
    redeliver: (id: string, body: T.Redeliver = {}): Promise<T.NotificationEvent> =>
      this.#run((api) => api.webhooks.redeliver({ path: { id }, payload: withRequestId(body) }))
  }
}
