/**
 * The console's only style sheet and script, served from the console's own paths so that the
 * pages' Content-Security-Policy allows nothing inline and nothing from elsewhere.
 * Colours keep a contrast of at least 4.5:1 against their background (WCAG AA).
 */
export const styleSheet = `
:root { color-scheme: light; --ink: #1b1f24; --muted: #4a5361; --line: #c9ced6; --bg: #ffffff; --band: #f2f4f7;
  --accent: #0b5cad; --bad: #a4161a; --good: #1d6b2f; --warn: #7a4b00; }
* { box-sizing: border-box; }
body { margin: 0; font: 16px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: var(--ink); background: var(--bg); }
a { color: var(--accent); }
a:focus-visible, button:focus-visible, input:focus-visible, select:focus-visible { outline: 3px solid var(--accent); outline-offset: 2px; }
.skip { position: absolute; left: -999px; } .skip:focus { left: 8px; top: 8px; background: var(--bg); padding: 4px 8px; z-index: 2; }
header { background: var(--band); border-bottom: 1px solid var(--line); padding: 8px 16px; display: flex; flex-wrap: wrap; gap: 8px 24px; align-items: center; }
header .brand { font-weight: 700; }
nav ul { list-style: none; margin: 0; padding: 0; display: flex; flex-wrap: wrap; gap: 4px 16px; }
nav a[aria-current="page"] { font-weight: 700; text-decoration: none; color: var(--ink); }
header form { margin-left: auto; }
main { padding: 16px; max-width: 1200px; }
h1 { font-size: 1.5rem; margin: 0 0 12px; } h2 { font-size: 1.2rem; margin: 24px 0 8px; }
.table { overflow-x: auto; }
table { border-collapse: collapse; width: 100%; font-size: 0.95rem; }
th, td { text-align: left; padding: 6px 8px; border-bottom: 1px solid var(--line); vertical-align: top; }
th { background: var(--band); }
td.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
code { font-size: 0.9em; word-break: break-all; }
.ok { color: var(--good); font-weight: 600; } .bad { color: var(--bad); font-weight: 600; } .warn { color: var(--warn); font-weight: 600; }
.cards { display: grid; grid-template-columns: repeat(auto-fit, minmax(220px, 1fr)); gap: 12px; }
.card { border: 1px solid var(--line); border-radius: 6px; padding: 10px 12px; }
.card h3 { margin: 0 0 4px; font-size: 1rem; color: var(--muted); }
.card p { margin: 0; font-size: 1.1rem; }
label { display: block; font-weight: 600; margin-bottom: 4px; }
input[type=text], input[type=password], input[type=search] { font: inherit; padding: 8px; width: 100%; max-width: 32rem; border: 1px solid var(--muted); border-radius: 4px; }
button { font: inherit; padding: 8px 14px; border-radius: 4px; border: 1px solid var(--accent); background: var(--accent); color: #fff; cursor: pointer; min-height: 44px; }
button.secondary { background: var(--bg); color: var(--accent); }
.notice { border-left: 4px solid var(--accent); background: var(--band); padding: 8px 12px; }
.error { border-left-color: var(--bad); }
.muted { color: var(--muted); } .refreshed { padding: 0 16px; }
@media (max-width: 640px) {
  main { padding: 12px; } th, td { padding: 4px 6px; } header form { margin-left: 0; }
}
`

/**
 * Short polling: every 15 s the page fetches itself and swaps its main region, unless the
 * operator is typing in a field or the page is hidden. No framework; pages work without it.
 */
export const refreshScript = `
(() => {
  const main = document.querySelector("main[data-refresh]");
  if (!main) return;
  const live = document.getElementById("refreshed");
  setInterval(async () => {
    if (document.hidden) return;
    const active = document.activeElement;
    if (active && main.contains(active) && /^(INPUT|SELECT|TEXTAREA|BUTTON)$/.test(active.tagName)) return;
    try {
      const response = await fetch(location.href, { credentials: "same-origin", headers: { accept: "text/html" } });
      if (!response.ok) return;
      const next = new DOMParser().parseFromString(await response.text(), "text/html").querySelector("main[data-refresh]");
      if (next) { main.innerHTML = next.innerHTML; if (live) live.textContent = "Updated " + new Date().toLocaleTimeString(); }
    } catch { /* the next tick tries again */ }
  }, 15000);
})();
`
