/**
 * One webhook request exactly as the tenant's receiver got it: the URL, the headers
 * (`Content-Type`, `X-App-Id`, `X-Event-Id`, `X-Event-Type`) and the sealed body, the envelope
 * the service's own sealer wrote. Every attempt is one request, retries included.
 */
export interface DeliveredWebhook {
  readonly url: string
  readonly headers: Readonly<Record<string, string>>
  readonly body: string
  /** When it arrived, on the Clock. */
  readonly at: Date
}
