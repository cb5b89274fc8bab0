/** A JSON POST to the simulated node (its control API, `/sim/...`); throws unless it answers 200. */
export const simPost = async (url: string, body: unknown) => {
  const res = await fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) })
  const text = await res.text()
  if (res.status !== 200) throw new Error(`${url}: HTTP ${res.status} ${text.slice(0, 300)}`)
  return JSON.parse(text) as Record<string, any>
}
