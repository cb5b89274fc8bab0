import { describe, expect, it } from "@effect/vitest"
import { readdirSync, readFileSync, statSync } from "node:fs"
import { dirname, join, relative, resolve } from "node:path"

// No circle of files inside a package, type-only imports included: a circle means two concepts
// that cannot be read, tested or moved apart (docs/architecture.md).
const root = resolve(import.meta.dirname, "..")
const relativeImport = /(?:import|export)\s[^'"]*?from\s+["'](\.[^"']+)["']/g

const sources = (dir: string): Array<string> =>
  readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    if (name === "node_modules" || name === "dist") return []
    if (statSync(path).isDirectory()) return sources(path)
    return name.endsWith(".ts") && !name.endsWith(".test.ts") && !name.endsWith(".d.ts") ? [path] : []
  })

/** The relative imports of each file that name another file of the set. */
export const importGraph = (files: ReadonlyArray<string>, read: (file: string) => string): Map<string, Array<string>> => {
  const known = new Set(files)
  return new Map(files.map((file) => [
    file,
    [...read(file).matchAll(relativeImport)]
      .map((match) => resolve(dirname(file), match[1]!.replace(/\.js$/, ".ts")))
      .filter((target) => known.has(target))
  ]))
}

/** Each group of files that reach one another (Tarjan's strongly connected components of size > 1). */
export const circles = (graph: ReadonlyMap<string, ReadonlyArray<string>>): Array<Array<string>> => {
  const index = new Map<string, number>()
  const low = new Map<string, number>()
  const stack: Array<string> = []
  const onStack = new Set<string>()
  const found: Array<Array<string>> = []
  const visit = (file: string) => {
    index.set(file, index.size)
    low.set(file, index.get(file)!)
    stack.push(file)
    onStack.add(file)
    for (const next of graph.get(file) ?? []) {
      if (!index.has(next)) {
        visit(next)
        low.set(file, Math.min(low.get(file)!, low.get(next)!))
      } else if (onStack.has(next)) low.set(file, Math.min(low.get(file)!, index.get(next)!))
    }
    if (low.get(file) === index.get(file)) {
      const group: Array<string> = []
      let member: string
      do {
        member = stack.pop()!
        onStack.delete(member)
        group.push(member)
      } while (member !== file)
      if (group.length > 1) found.push(group.sort())
    }
  }
  for (const file of graph.keys()) if (!index.has(file)) visit(file)
  return found
}

describe("import circles", () => {
  it("finds a circle of three files and none in a chain", () => {
    const files = ["/p/a.ts", "/p/b.ts", "/p/c.ts", "/p/d.ts"]
    const text: Record<string, string> = {
      "/p/a.ts": `import { b } from "./b.js"`,
      "/p/b.ts": `import type { C } from "./c.js"`,
      "/p/c.ts": `export * from "./a.js"`,
      "/p/d.ts": `import { a } from "./a.js"`
    }
    expect(circles(importGraph(files, (file) => text[file]!))).toEqual([["/p/a.ts", "/p/b.ts", "/p/c.ts"]])
    text["/p/c.ts"] = ""
    expect(circles(importGraph(files, (file) => text[file]!))).toEqual([])
  })

  it("there are none in the packages and apps", () => {
    const files = ["packages", "apps"].flatMap((dir) => sources(join(root, dir)))
    const found = circles(importGraph(files, (file) => readFileSync(file, "utf8")))
    expect(found.map((group) => group.map((file) => relative(root, file)))).toEqual([])
  })
})
