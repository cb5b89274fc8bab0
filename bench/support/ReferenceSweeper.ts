/**
 * The sweeps benchmark's fair reference (issue 21): a hand-written sweeper, no Effect runtime,
 * that moves every wallet's whole USDT balance to the collection address against the same
 * simulated node, with only the node calls the transfer itself needs:
 *
 * - per chunk of `batchSize` wallets (as our sweeper reads once per pass): `/walletsolidity/getblock`
 *   (the TaPoS reference, as ours: a solidified block cannot be forked away) and `/wallet/getblock`
 *   (the head's time, from which the expiration counts, as ours);
 * - per wallet: `/walletsolidity/triggerconstantcontract` balanceOf (mode "all": the amount is what
 *   the wallet holds at the solidified block), the transfer built locally with the same pure
 *   builder our adapter uses (`Trc20TransferTransaction.build`, byte for byte a node's
 *   triggersmartcontract), signed with `TronSignature.sign` (noble secp256k1), written as the
 *   signed `Transaction` protobuf (`Protobuf.Writer`, as our adapter) and sent with
 *   `/wallet/broadcasthex`; once the block is solidified, `/walletsolidity/gettransactioninfobyid`
 *   (the receipt: the transfer counts as settled only when it says SUCCESS).
 *
 * Not done, which ours does: energy and TRX checks (`getaccountresource`, `getaccount`), the
 * energy estimate (`estimateenergy`), chain parameters (the fee limit here is a constant), key
 * unsealing (the keys are given in the clear), any persistence, retries or expiry proofs.
 * Block waits are excluded from the time: the send phase and the receipt phase are timed, the wait
 * for solidification between them is not (as our busy time excludes the passes that claimed nothing).
 */
import { Protobuf, RefBlock, TronSignature, Trc20Call, Trc20TransferTransaction } from "@collector/tron"
import { Either, Option } from "effect"
import http from "node:http"

export interface ReferenceWallet {
  readonly address: string
  readonly secretKey: Uint8Array
}

export interface ReferenceOptions {
  readonly url: string
  readonly usdtContract: string
  readonly collection: string
  readonly wallets: ReadonlyArray<ReferenceWallet>
  readonly concurrency: number
  readonly batchSize: number
  readonly validityMs: number
  readonly feeLimit: bigint
  readonly blockMs: number
}

export interface ReferenceResult {
  readonly transfers: number
  readonly settled: number
  readonly swept: bigint
  /** Send phase plus receipt phase: block waits excluded. */
  readonly busySeconds: number
  readonly sendSeconds: number
  readonly receiptSeconds: number
  readonly waitSeconds: number
  readonly calls: number
  readonly callsByPath: ReadonlyMap<string, number>
  readonly failures: ReadonlyArray<string>
}

const right = <A, E>(either: Either.Either<A, E>, what: string): A => {
  if (Either.isLeft(either)) throw new Error(`${what}: ${JSON.stringify(either.left)}`)
  return either.right
}

const some = <A>(option: Option.Option<A>, what: string): A => {
  if (Option.isNone(option)) throw new Error(what)
  return option.value
}

export const runReferenceSweeper = async (options: ReferenceOptions): Promise<ReferenceResult> => {
  const agent = new http.Agent({ keepAlive: true, maxSockets: options.concurrency })
  const base = new URL(options.url)
  const callsByPath = new Map<string, number>()
  let calls = 0
  const post = (path: string, body: unknown): Promise<any> =>
    new Promise((resolve, reject) => {
      calls++
      callsByPath.set(path, (callsByPath.get(path) ?? 0) + 1)
      const payload = JSON.stringify(body)
      const request = http.request(
        { host: base.hostname, port: base.port, path, method: "POST", agent, headers: { "content-type": "application/json", "content-length": Buffer.byteLength(payload) } },
        (response) => {
          const chunks: Array<Buffer> = []
          response.on("data", (chunk: Buffer) => chunks.push(chunk))
          response.on("end", () => {
            try {
              resolve(JSON.parse(Buffer.concat(chunks).toString("utf8")))
            } catch (error) {
              reject(error)
            }
          })
          response.on("error", reject)
        }
      )
      request.on("error", reject)
      request.end(payload)
    })

  /** Runs `work` over `items`, at most `concurrency` at once. */
  const pool = async <T>(items: ReadonlyArray<T>, work: (item: T) => Promise<void>) => {
    let next = 0
    await Promise.all(Array.from({ length: Math.min(options.concurrency, items.length) }, async () => {
      while (next < items.length) await work(items[next++]!)
    }))
  }

  const failures: Array<string> = []
  const sent: Array<{ txid: string; amount: bigint }> = []
  const blockNumber = (reply: any) => Number(reply.block_header.raw_data.number)

  const sendOne = (refBlock: RefBlock.RefBlock, expiration: bigint) => async (w: ReferenceWallet) => {
    const balanceReply = await post("/walletsolidity/triggerconstantcontract", {
      owner_address: w.address,
      contract_address: options.usdtContract,
      function_selector: "balanceOf(address)",
      parameter: right(Trc20Call.balanceOfParameter(w.address), "balanceOf parameter"),
      visible: true
    })
    const amount = some(Trc20Call.decodeUint256(balanceReply.constant_result?.[0] ?? ""), `balanceOf ${w.address}: ${JSON.stringify(balanceReply)}`)
    if (amount === 0n) return
    const built = right(Trc20TransferTransaction.build({
      owner: w.address,
      contract: options.usdtContract,
      to: options.collection,
      amount,
      feeLimit: options.feeLimit,
      refBlock,
      expiration,
      timestamp: BigInt(Date.now())
    }), "build")
    const signature = TronSignature.sign(w.secretKey, Buffer.from(built.txid, "hex"))
    const signed = new Protobuf.Writer().message(1, Buffer.from(built.rawDataHex, "hex"))
      .tag(2, Protobuf.WireType.LengthDelimited).lengthDelimited(signature).finish()
    const reply = await post("/wallet/broadcasthex", { transaction: Buffer.from(signed).toString("hex") })
    if (reply.result !== true) failures.push(`broadcast of ${built.txid} from ${w.address}: ${JSON.stringify(reply)}`)
    else sent.push({ txid: built.txid, amount })
  }

  // Send phase: per chunk, one read of the solidified block (TaPoS) and of the head (expiration).
  const sendStarted = performance.now()
  let lastHead = 0
  for (let start = 0; start < options.wallets.length; start += options.batchSize) {
    const [solidified, head] = await Promise.all([
      post("/walletsolidity/getblock", { detail: false }),
      post("/wallet/getblock", { detail: false })
    ])
    const refBlock = some(RefBlock.fromBlockId(solidified.blockID), `solidified block id ${solidified.blockID}`)
    const expiration = BigInt(head.block_header.raw_data.timestamp) + BigInt(options.validityMs)
    await pool(options.wallets.slice(start, start + options.batchSize), sendOne(refBlock, expiration))
    lastHead = blockNumber(head)
  }
  const sendSeconds = (performance.now() - sendStarted) / 1000

  // Not timed: wait until the block after the last broadcast is solidified (polling not counted).
  const waitStarted = performance.now()
  const before = calls
  const beforeByPath = new Map(callsByPath)
  const waitSolidified = async (target: number) => {
    while (blockNumber(await post("/walletsolidity/getblock", { detail: false })) < target) {
      await new Promise((r) => setTimeout(r, options.blockMs))
    }
  }
  const current = blockNumber(await post("/wallet/getblock", { detail: false }))
  await waitSolidified(Math.max(lastHead, current) + 1)
  let waitMs = performance.now() - waitStarted
  calls = before
  callsByPath.clear()
  for (const [k, v] of beforeByPath) callsByPath.set(k, v)

  // Receipt phase: one solidified receipt per transfer; one not there yet is asked again a block later.
  let receiptMs = 0
  let pending = sent
  let settled = 0
  let swept = 0n
  for (let round = 0; pending.length > 0 && round < 50; round++) {
    const started = performance.now()
    const missing: typeof sent = []
    await pool(pending, async (tx) => {
      const info = await post("/walletsolidity/gettransactioninfobyid", { value: tx.txid })
      if (info.id === undefined) missing.push(tx)
      else if (info.receipt?.result !== "SUCCESS" || (info.fee !== undefined && Number(info.fee) !== 0)) {
        failures.push(`receipt of ${tx.txid}: ${JSON.stringify(info)}`)
      } else {
        settled++
        swept += tx.amount
      }
    })
    receiptMs += performance.now() - started
    pending = missing
    if (missing.length > 0) {
      const waited = performance.now()
      await new Promise((r) => setTimeout(r, options.blockMs))
      waitMs += performance.now() - waited
    }
  }
  if (pending.length > 0) failures.push(`${pending.length} transfers without a solidified receipt`)
  agent.destroy()
  const receiptSeconds = receiptMs / 1000
  return {
    transfers: sent.length,
    settled,
    swept,
    busySeconds: sendSeconds + receiptSeconds,
    sendSeconds,
    receiptSeconds,
    waitSeconds: waitMs / 1000,
    calls,
    callsByPath,
    failures
  }
}
