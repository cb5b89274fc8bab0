import { makeCollectorClient } from "@collector/sdk"
import { freshDatabaseUrl } from "@collector/postgres/testing"
import { FetchHttpClient } from "@effect/platform"
import { expect, it } from "@effect/vitest"
import { Effect, Redacted } from "effect"
import { randomUUID } from "node:crypto"
import { existsSync, mkdirSync, rmSync } from "node:fs"
import { resolve } from "node:path"
import { chromium, type Page } from "playwright-core"
import { freePort, repositoryRoot, runTs, startTs, waitForHttp } from "../../../test-support/Processes.js"

const chromiumPath = process.env["CHROMIUM_PATH"] ?? "/usr/bin/chromium"
/** Where the run leaves a screenshot of each page (gitignored); docs/console/ holds a copy. */
const screenshots = resolve(repositoryRoot, ".data", "console-screenshots")

/** Waits for `text` to show in the page's main region, which the page's own polling refreshes every 15 s. */
const showsUp = async (page: Page, text: string) => {
  await page.locator("main").getByText(text).first().waitFor({ timeout: 90_000 }).catch(async () => {
    throw new Error(`"${text}" never showed on ${page.url()}; last seen:\n${await page.locator("main").innerText()}`)
  })
}

// Without Chromium the test cannot run: .ci/run installs it, so only a developer's machine may lack it.
it.live.skipIf(!existsSync(chromiumPath) && process.env["CI"] === undefined)(
  "console in Chromium over a real service: log in, a deposit appears after a mint, re-deliver its event, cancel a waiting sweep, find the wallet",
  () =>
    Effect.gen(function*() {
      const { url } = yield* freshDatabaseUrl
      const dataDir = resolve(repositoryRoot, ".data", `service-console-test-${process.pid}`)
      const [port, simPort, operatorPort] = [yield* Effect.promise(freePort), yield* Effect.promise(freePort), yield* Effect.promise(freePort)]
      const env = {
        DATABASE_URL: Redacted.value(url),
        MASTER_KEY: Buffer.alloc(32, 7).toString("base64"),
        DATA_DIR: dataDir,
        PORT: String(port),
        OPERATOR_PORT: String(operatorPort),
        TRON_NILE_NODE_URL: undefined,
        TRON_SIM_PORT: String(simPort),
        TRON_SIM_BLOCK_MS: "300",
        SCAN_POLL_MS: "100",
        LOG_LEVEL: "WARN"
      }
      const child = startTs("apps/service/src/main.ts", env)
      yield* Effect.addFinalizer(() => Effect.sync(() => (child.kill("SIGTERM"), rmSync(dataDir, { recursive: true, force: true }))))
      const consoleUrl = `http://127.0.0.1:${operatorPort}/console`
      yield* Effect.promise(() => waitForHttp(`http://127.0.0.1:${operatorPort}/healthz`))

      const cli = (...args: Array<string>) => Effect.promise(() => runTs("apps/cli/src/main.ts", env, args))
      const tokenRun = yield* cli("operator", "token", "create", "--json")
      expect(tokenRun.code, tokenRun.stderr).toBe(0)
      const { id: tokenId, token } = JSON.parse(tokenRun.stdout) as { token: string; id: string }
      const created = yield* cli("tenant", "create", "--name", "acme", "--networks", "nile", "--json")
      expect(created.code, created.stderr).toBe(0)
      expect((yield* cli("tenant", "set-confirmation", "acme", "--network", "nile", "--rule", "block_1")).code).toBe(0)
      const app = JSON.parse(created.stdout).apps[0]
      const client = yield* makeCollectorClient({ baseUrl: `http://127.0.0.1:${port}`, appId: app.app_id, appSecret: Redacted.make(app.app_secret), timeout: "10 seconds" }).pipe(
        Effect.provide(FetchHttpClient.layer)
      )
      const wallet = yield* client.wallets.createWallet({ payload: { custom_id: "console-1", request_id: randomUUID() } })

      const browser = yield* Effect.acquireRelease(
        Effect.promise(() => chromium.launch({ executablePath: chromiumPath, args: ["--no-sandbox"] })),
        (b) => Effect.promise(() => b.close())
      )
      mkdirSync(screenshots, { recursive: true })
      const page = yield* Effect.promise(() => browser.newPage({ viewport: { width: 1100, height: 800 } }))
      const shot = (name: string) => Effect.promise(() => page.screenshot({ path: resolve(screenshots, `${name}.png`), fullPage: true }))

      yield* Effect.promise(async () => {
        // Not logged in: the login page, reached by keyboard alone.
        await page.goto(consoleUrl)
        expect(new URL(page.url()).pathname).toBe("/console/login")
        await page.getByLabel("Operator token").fill("opt_wrong")
        await page.keyboard.press("Enter")
        await page.getByRole("alert").waitFor()
        await page.getByLabel("Operator token").fill(token)
        await page.screenshot({ path: resolve(screenshots, "login.png") })
        await page.keyboard.press("Enter")
        await page.waitForURL(consoleUrl)
        await page.getByRole("heading", { name: "Overview" }).waitFor()
      })

      // A mint to the wallet shows as a deposit on the overview, brought by the page's own refresh.
      const minted = yield* Effect.promise(() =>
        fetch(`http://127.0.0.1:${simPort}/sim/mint`, { method: "POST", body: JSON.stringify({ to: wallet.address, amount: "5000000" }) }).then((r) => r.json() as Promise<{ ok: boolean }>)
      )
      expect(minted.ok).toBe(true)
      yield* Effect.promise(() => showsUp(page, "1 · 5 USDT"))
      yield* shot("overview")

      yield* Effect.promise(async () => {
        await page.getByRole("link", { name: "Tenants" }).click()
        await page.getByRole("heading", { name: "Tenants" }).waitFor()
        expect(await page.locator("main").innerText()).toContain("acme")
      })
      yield* shot("tenants")

      // No webhook is set, so the deposit's event fails at once: re-deliver it, confirmed, and see it audited.
      yield* Effect.promise(async () => {
        await page.getByRole("link", { name: "Deliveries" }).click()
        await showsUp(page, "deposit.confirmed")
      })
      yield* shot("deliveries")
      yield* Effect.promise(async () => {
        await page.getByRole("link", { name: "Re-deliver" }).first().click()
        await page.getByRole("heading", { name: "Confirm" }).waitFor()
        await page.screenshot({ path: resolve(screenshots, "confirm.png"), fullPage: true })
        await page.getByRole("button", { name: "Confirm" }).click()
        await page.getByText("done: a new delivery round started").waitFor()
        await page.getByRole("link", { name: "See the audit trail" }).click()
        const audit = await page.locator("main").innerText()
        expect(audit).toContain("redeliver_event")
        expect(audit).toContain(`#${tokenId}`)
      })
      yield* shot("audit")

      // A sweep waiting for energy that the provider delivers only after 100,000 blocks: cancelled from its page.
      const collector = yield* client.wallets.createWallet({ payload: { custom_id: "console-collector", request_id: randomUUID() } })
      yield* client.settings.setCollectionAddress({ payload: { address: collector.address, request_id: randomUUID() } })
      const { network: _, updated_at: __, ...defaults } = yield* client.settings.getAutomation()
      yield* client.settings.setAutomation({ payload: { ...defaults, rental_allowed: true, request_id: randomUUID() } })
      const slowed = yield* Effect.promise(() =>
        fetch(`http://127.0.0.1:${simPort}/sim/provider/slow`, { method: "POST", body: JSON.stringify({ blocks: 100_000 }) }).then((r) => r.status)
      )
      expect(slowed).toBe(200)
      // The deposit counts once solidified (19 blocks of 300 ms).
      let estimate = yield* client.sweeps.estimateSweeps({ payload: { wallet_ids: [wallet.id], sweep_mode: "all" } })
      for (let i = 0; i < 100 && estimate.items[0]!.amount !== "5000000"; i++) {
        yield* Effect.sleep("500 millis")
        estimate = yield* client.sweeps.estimateSweeps({ payload: { wallet_ids: [wallet.id], sweep_mode: "all" } })
      }
      const batch = yield* client.sweeps.createSweeps({ payload: { wallet_ids: [wallet.id], sweep_mode: "all", request_id: randomUUID() } })
      const sweepId = batch.items[0]!.task!.id
      yield* Effect.promise(async () => {
        await page.getByRole("link", { name: "Sweeps" }).click()
        await page.getByRole("heading", { name: "Sweeps not succeeded" }).waitFor()
        await showsUp(page, "waiting_energy")
      })
      yield* shot("sweeps")
      yield* Effect.promise(async () => {
        // The sweeper may hold the task for the moment of a step: the console says so, and a second try goes through.
        for (let attempt = 0; attempt < 5; attempt++) {
          await page.getByRole("link", { name: "Sweeps" }).click()
          await page.locator("main").getByRole("link", { name: "Cancel" }).first().click()
          await page.getByRole("heading", { name: "Confirm" }).waitFor()
          expect(await page.locator("main").innerText()).toContain(`Cancel sweep ${sweepId}`)
          await page.getByRole("button", { name: "Confirm" }).click()
          const said = await page.locator("main").innerText()
          if (said.includes("done: cancelled")) return
          if (!said.includes("try again")) throw new Error(`the cancel answered: ${said}`)
        }
        throw new Error("the sweeper held the sweep at every try")
      })
      const cancelled = yield* client.sweeps.getSweep({ path: { id: sweepId } })
      expect(cancelled.status).toBe("cancelled")
      expect(cancelled.reason).toContain("cancelled by the operator (console token")

      // Find the wallet by its address, on a phone-sized screen.
      yield* Effect.promise(async () => {
        await page.setViewportSize({ width: 390, height: 844 })
        await page.getByRole("link", { name: "Search" }).click()
        await page.getByLabel("Wallet address or transaction ID").fill(wallet.address)
        await page.keyboard.press("Enter")
        await page.getByRole("heading", { name: /Results for/ }).waitFor()
        expect(await page.locator("main").innerText()).toContain("console-1")
      })
      yield* shot("search-phone")

      // A bearer token gets the same pages; nothing without it.
      const bearer = yield* Effect.promise(() => fetch(`${consoleUrl}/tenants`, { headers: { authorization: `Bearer ${token}` } }))
      expect(bearer.status).toBe(200)
      const anonymous = yield* Effect.promise(() => fetch(`${consoleUrl}/tenants`, { headers: { authorization: "Bearer opt_nothing" } }))
      expect(anonymous.status).toBe(401)
    }).pipe(Effect.scoped),
  { timeout: 300_000 }
)
