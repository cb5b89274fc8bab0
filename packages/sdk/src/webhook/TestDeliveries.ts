import { sealEnvelope } from "@collector/api"
import { randomBytes } from "node:crypto"
import { readFileSync } from "node:fs"
import type { DepositEvent } from "./DepositEvent.js"

/**
 * Test support (not exported from the package): the contract's worked example and
 * deliveries sealed the way the service seals them, through the service's own `sealEnvelope`.
 */
export const webhookVector = JSON.parse(readFileSync(new URL("../../../../test-fixtures/webhook-vector.json", import.meta.url), "utf8")) as {
  readonly webhook_key: string
  readonly plaintext: string
  readonly envelope: Record<string, string>
  readonly headers: Record<string, string>
  readonly acknowledgement: { readonly status: number; readonly body: unknown }
}

export const testAppId = "1000001"
export const testKey = webhookVector.webhook_key

export const sampleDeposit = (overrides: Partial<DepositEvent> = {}): DepositEvent => ({
  id: "501",
  event_id: "9001",
  event_type: "deposit.confirmed",
  status: "confirmed",
  wallet_id: "42",
  custom_id: "user-7",
  chain: "TRON",
  network: "nile",
  asset: "USDT",
  token_standard: "TRC20",
  decimals: 6,
  address: "TXngH8bVadn9ZWtKBgjKQcqN1GsZ7A1jcb",
  source: "TJRabPrwbZy45sbavfcjinPJC18kjpRTv8",
  contract: "TXYZopYRdj2D9XRtbG411XZZ3kM5VkAeBf",
  amount: "2500000",
  txid: "c0ffee0000000000000000000000000000000000000000000000000000000001",
  log_index: 0,
  block_number: "61000000",
  block_time: "2026-11-21T10:15:00.000000Z",
  created_at: "2026-11-21T10:16:03.000000Z",
  revision: 1,
  confirmation_type: "block_6",
  confirmations: 6,
  block_hash: "0000000003a2c9400000000000000000000000000000000000000000000000ff",
  ...overrides
})

export interface TestDelivery {
  readonly body: string
  readonly headers: Record<string, string>
}

/** Seals `plaintext` as one delivery attempt, with the headers the service sends beside it. */
export const sealDelivery = (
  plaintext: string,
  event: { readonly event_id: string; readonly event_type: string },
  options: { readonly key?: string; readonly timestamp?: string; readonly appId?: string } = {}
): TestDelivery => {
  const envelope = sealEnvelope({
    key: Buffer.from(options.key ?? testKey, "base64"),
    plaintext,
    timestamp: options.timestamp ?? "2026-11-21T10:16:04.000001Z",
    nonce: randomBytes(12)
  })
  return {
    body: JSON.stringify(envelope),
    headers: {
      "content-type": "application/json",
      "x-app-id": options.appId ?? testAppId,
      "x-event-id": event.event_id,
      "x-event-type": event.event_type
    }
  }
}

export const sealEvent = <E extends { readonly event_id: string; readonly event_type: string }>(event: E, options?: Parameters<typeof sealDelivery>[2]) =>
  sealDelivery(JSON.stringify(event), event, options)
