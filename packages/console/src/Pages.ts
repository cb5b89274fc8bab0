import { Engine, Fees, type Kernel, Operators, Sweeps } from "@collector/core"
import { Clock, Effect, Option } from "effect"
import { time, trx, usdt } from "./Format.js"
import { type Html, html } from "./Html.js"

/** How many rows a list page shows, and where an overview count stops (`10000+`). */
export const listLimit = 200
export const countLimit = 10_000

const count = (n: number) => n >= countLimit ? `${countLimit}+` : String(n)
const yesNo = (ok: boolean, yes: string, no: string) => ok ? html`<span class="ok">${yes}</span>` : html`<span class="bad">${no}</span>`
const table = (caption: string, head: ReadonlyArray<string>, rows: ReadonlyArray<Html>, empty: string) =>
  rows.length === 0
    ? html`<p>${empty}</p>`
    : html`<div class="table" role="region" aria-label="${caption}" tabindex="0"><table><caption class="skip">${caption}</caption><thead><tr>${
      head.map((h) => html`<th scope="col">${h}</th>`)
    }</tr></thead><tbody>${rows}</tbody></table></div>`
const confirmLink = (params: Record<string, string>, label: string) =>
  html`<a href="/console/confirm?${new URLSearchParams(params).toString()}">${label}</a>`

/** Only a sweep not yet signed can be retried now or cancelled; a signed one is the chain's to settle. */
const sweepActions = (s: Operators.SweepAttention) => {
  const params = { tenant: s.tenantId, network: s.network, sweep: s.id }
  return html`${confirmLink({ action: "retry_sweep", ...params }, "Retry now")} ${confirmLink({ action: "cancel_sweep", ...params }, "Cancel")}`
}

/** What the day's finished sweeps paid, and what the fee policy saved against burning for all of it. */
const feeCard = (fees: Fees.FeeTotals) => {
  if (fees.entries === 0) return html`<div class="card"><h3>Sweep fees, last day</h3><p>no sweep booked</p></div>`
  const toNetwork = fees.networkEnergyFee + fees.networkBandwidthFee
  const toProviders = fees.providerEnergyCost + fees.providerActivationCost
  return html`<div class="card"><h3>Sweep fees, last day</h3><p>${count(fees.entries)} sweeps · paid ${trx(toNetwork + toProviders + fees.lendingFee)} (network ${trx(toNetwork)}, providers ${
    trx(toProviders)
  }, lending from the own stake ${trx(fees.lendingFee)}) · saved ${
    trx(fees.saving)
  } (${Fees.savingPercent(fees) ?? "0.00"}% of burning)</p></div>`
}

const now = Effect.map(Clock.currentTimeMillis, (millis) => new Date(millis))

export const overview = Effect.gen(function*() {
  const report = yield* Effect.flatMap(Engine.Readiness, (r) => r.check)
  const queries = yield* Operators.ConsoleQueries
  const at = yield* now
  const networks = [...new Set(report.checks.flatMap((c) => c.network === undefined ? [] : [c.network]))]
  const shown: ReadonlyArray<Kernel.Network> = networks.length === 0 ? ["nile", "main"] : networks
  const since = { hour: new Date(at.getTime() - 3_600_000), day: new Date(at.getTime() - 86_400_000) }
  const ledger = yield* Fees.FeeLedger
  const sections = yield* Effect.forEach(shown, (network) =>
    Effect.map(Effect.zip(queries.networkActivity(network, since, countLimit), ledger.networkTotals(network, { since: since.day })), ([activity, fees]) => {
      const position = Option.getOrUndefined(activity.position)
      const checks = report.checks.filter((c) => c.network === network)
      return html`<section aria-labelledby="net-${network}"><h2 id="net-${network}">Network ${network}</h2>
<div class="cards">
<div class="card"><h3>Node head / solidified</h3><p>${position === undefined ? "not scanned yet" : `${position.head} / ${position.solidified}`}</p></div>
<div class="card"><h3>Scan lag</h3><p>${position === undefined ? "—" : `${position.head - position.scanned} blocks`}</p></div>
<div class="card"><h3>Deposits, last hour</h3><p>${activity.depositsSinceHour.count} · ${usdt(activity.depositsSinceHour.usdt)}</p></div>
<div class="card"><h3>Deposits, last day</h3><p>${activity.depositsSinceDay.count} · ${usdt(activity.depositsSinceDay.usdt)}</p></div>
<div class="card"><h3>Webhook backlog</h3><p>${count(activity.webhookBacklog)} events</p></div>
<div class="card"><h3>Sweeps not succeeded</h3><p>${
        activity.sweepsByStatus.length === 0 ? "none" : activity.sweepsByStatus.map((s) => `${s.status} ${count(s.count)}`).join(", ")
      }</p></div>
${feeCard(fees)}
</div>
${table(`Components on ${network}`, ["Component", "Ready", "Detail"], checks.map((c) => html`<tr><td>${c.component}</td><td>${yesNo(c.ready, "ready", "not ready")}</td><td>${c.detail}</td></tr>`), "No component reports on this network.")}
</section>`
    }))
  const shared = report.checks.filter((c) => c.network === undefined)
  return html`<h1>Overview</h1>
<p>Service ${yesNo(report.ready, "ready", "not ready")} at ${time(at)}.</p>
${table("Process components", ["Component", "Ready", "Detail"], shared.map((c) => html`<tr><td>${c.component}</td><td>${yesNo(c.ready, "ready", "not ready")}</td><td>${c.detail}</td></tr>`), "")}
${sections}`
})

export const tenants = Effect.gen(function*() {
  const at = yield* now
  const rows = yield* (yield* Operators.ConsoleQueries).tenants(new Date(at.getTime() - 86_400_000), listLimit)
  return html`<h1>Tenants</h1>
${table("Tenants", ["Tenant", "Network", "Wallets", "Balances held", "Collection address", "Confirmation", "Automation", "Webhook", "Deliveries (24 h)"], rows.map((t) => {
    const ended = t.deliveredSinceDay + t.failedSinceDay
    return html`<tr><td>${t.name} <span class="muted">#${t.tenantId}</span>${t.status === "active" ? null : html` <span class="warn">${t.status}</span>`}</td>
<td>${t.network}</td><td class="num">${t.walletCount}</td><td class="num">${usdt(t.balanceUsdt)}</td>
<td>${t.collectionAddress === "" ? html`<span class="muted">not set</span>` : html`<code>${t.collectionAddress}</code>`}</td>
<td>${t.confirmationRule}</td>
<td>${t.automationEnabled ? html`<span class="ok">on</span> from ${usdt(t.automationThreshold ?? 0n)}` : html`<span class="muted">off</span>`}<br>${
      confirmLink({ action: t.automationEnabled ? "pause_automation" : "resume_automation", tenant: t.tenantId, network: t.network }, t.automationEnabled ? "Pause" : "Resume")
    }</td>
<td>${t.webhookUrl === "" ? html`<span class="muted">none</span>` : html`<code>${t.webhookUrl}</code>${t.webhookEnabled ? null : html` <span class="warn">disabled</span>`}`}</td>
<td>${ended === 0 ? html`<span class="muted">none ended</span>` : `${Math.round((t.deliveredSinceDay * 100) / ended)}% of ${ended} delivered`}</td></tr>`
  }), "No tenants yet.")}`
})

export const deliveries = Effect.gen(function*() {
  const rows = yield* (yield* Operators.ConsoleQueries).troubledDeliveries(listLimit)
  return html`<h1>Deliveries failing or retrying</h1>
${table("Deliveries", ["Event", "Tenant", "Type", "Status", "Attempts", "Last response", "Reason", "Next attempt", "Action"], rows.map((d) => html`<tr>
<td>${d.eventId}</td><td>#${d.tenantId} ${d.network}</td><td>${d.eventType}</td>
<td>${d.status === "failed" ? html`<span class="bad">failed</span>` : html`<span class="warn">retrying</span>`}</td>
<td class="num">${d.attempts} (round ${d.round})</td><td>${d.lastHttpStatus === null ? "—" : d.lastHttpStatus}</td><td>${d.lastError}</td>
<td>${time(d.nextAttempt)}</td>
<td>${d.status === "failed" ? confirmLink({ action: "redeliver_event", tenant: d.tenantId, network: d.network, event: d.eventId }, "Re-deliver") : null}</td></tr>`), "No delivery is failing or retrying.")}`
})

export const sweeps = Effect.gen(function*() {
  const rows = yield* (yield* Operators.ConsoleQueries).sweepsNotSucceeded(listLimit)
  return html`<h1>Sweeps not succeeded</h1>
${table("Sweeps", ["Sweep", "Tenant", "From", "Status", "Stage", "Amount", "Reason", "Updated", "Action"], rows.map((s) => html`<tr>
<td>${s.id}</td><td>#${s.tenantId} ${s.network}</td><td><code>${s.address}</code></td>
<td>${s.status === "failed" ? html`<span class="bad">failed</span>` : s.status}</td><td>${s.stage}</td><td class="num">${usdt(s.amount)}</td>
<td>${s.reason === "" ? html`<span class="muted">—</span>` : s.reason}</td><td>${time(s.updatedAt)}</td>
<td>${Sweeps.unsignedStatuses.includes(s.status) ? sweepActions(s) : null}</td></tr>`), "Every sweep has succeeded.")}`
})

export const search = (query: string) =>
  Effect.gen(function*() {
    const queries = yield* Operators.ConsoleQueries
    const q = query.trim()
    const wallets = q === "" ? [] : yield* queries.findWallets(q)
    const transactions = q === "" || !/^[0-9a-fA-F]{64}$/.test(q) ? [] : yield* queries.findTransaction(q.toLowerCase())
    return html`<h1>Search</h1>
<form method="get" action="/console/search" role="search">
<label for="q">Wallet address or transaction ID</label>
<input type="search" id="q" name="q" value="${q}" autocomplete="off" spellcheck="false" required>
<button type="submit">Search</button>
</form>
${q === "" ? null : html`<h2>Results for <code>${q}</code></h2>
${table("Wallets found", ["Wallet", "Tenant", "Network", "Address", "Custom ID", "USDT balance"], wallets.map((w) => html`<tr>
<td>${w.walletId}</td><td>#${w.tenantId}</td><td>${w.network}</td><td><code>${w.address}</code></td><td>${w.customId}</td>
<td class="num">${w.balanceUsdt === null ? "not synced" : usdt(w.balanceUsdt)}</td></tr>`), "No wallet has this address.")}
${table("Transactions found", ["Kind", "ID", "Tenant", "Network", "Status", "Wallet", "Amount"], transactions.map((t) => html`<tr>
<td>${t.kind}</td><td>${t.id}</td><td>#${t.tenantId}</td><td>${t.network}</td><td>${t.status}</td><td><code>${t.address}</code></td><td class="num">${usdt(t.amount)}</td></tr>`), "No deposit or sweep has this transaction ID.")}`}`
  })

export const audit = Effect.gen(function*() {
  const entries = yield* (yield* Operators.OperatorAuditLog).recent(listLimit)
  return html`<h1>Audit</h1>
${table("Audit entries", ["When", "Operator token", "Action", "Target", "Outcome"], entries.map((e) => html`<tr>
<td>${time(e.at)}</td><td>#${e.tokenId}</td><td>${e.action}</td><td>${e.target}</td><td>${e.outcome}</td></tr>`), "No action has been taken through the console.")}`
})
