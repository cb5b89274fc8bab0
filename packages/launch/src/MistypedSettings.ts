/** A variable set in the environment that no setting read, beside the setting it is probably meant to be. */
export interface MistypedSetting {
  readonly name: string
  readonly meant: string
}

/**
 * Edit distance counting a swap of two neighbours as one edit (optimal string alignment): `PROT`
 * is one edit from `PORT`, as a person sees it.
 */
export const editDistance = (a: string, b: string): number => {
  const d = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)))
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1
      d[i]![j] = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost)
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d[i]![j] = Math.min(d[i]![j]!, d[i - 2]![j - 2]! + 1)
    }
  }
  return d[a.length]![b.length]!
}

// How far a name may be from a setting to count as a slip of it: one edit for short names (where
// two would match unrelated words, HOST and PORT), two for longer ones.
const slipsOf = (name: string) => (name.length <= 6 ? 1 : 2)

/**
 * The environment's variables that look like one of `read` (the settings this process read while
 * it started) but were not read themselves: `PROT=9000` beside `PORT`, or
 * `WEBHOOK_ALLOW_PRIVATE_TARGET` beside `WEBHOOK_ALLOW_PRIVATE_TARGETS`. Only upper-case names are
 * considered (the shell's and npm's own are lower-case or far from ours), so a setting meant for
 * another process of the service (far from every name this one read) is not reported.
 */
export const mistypedSettings = (env: Readonly<Record<string, string | undefined>>, read: ReadonlySet<string>): ReadonlyArray<MistypedSetting> =>
  Object.keys(env)
    .filter((name) => /^[A-Z][A-Z0-9_]*$/.test(name) && !read.has(name))
    .flatMap((name) => {
      let best: { readonly meant: string; readonly distance: number } | undefined
      for (const meant of read) {
        const distance = editDistance(name, meant)
        if (distance <= slipsOf(meant) && (best === undefined || distance < best.distance)) best = { meant, distance }
      }
      return best === undefined ? [] : [{ name, meant: best.meant }]
    })
    .sort((a, b) => (a.name < b.name ? -1 : 1))
