import { sha256 } from "@noble/hashes/sha2.js"
import { PCGRandom } from "effect/Utils"

const seedWords = (seed: string): [number, number] => {
  const digest = sha256(new TextEncoder().encode(seed))
  const view = new DataView(digest.buffer, digest.byteOffset, digest.byteLength)
  return [view.getUint32(0), view.getUint32(4)]
}

/**
 * The run's chances: a seeded generator with a stream per concern (`stream("faults")`), so that
 * what one concern draws never shifts another's draws. The same seed gives the same draws.
 */
export class Dice {
  private readonly pcg: PCGRandom

  constructor(readonly seed: string) {
    const [hi, lo] = seedWords(seed)
    this.pcg = new PCGRandom(hi, lo)
  }

  stream(name: string): Dice {
    return new Dice(`${this.seed}/${name}`)
  }

  /** A whole number from `min` to `max`, both included. */
  int(min: number, max: number): number {
    return min + this.pcg.integer(max - min + 1)
  }

  /** A bigint from `min` to `max` (below 2^53 apart). */
  amount(min: bigint, max: bigint): bigint {
    return min + BigInt(this.pcg.integer(Number(max - min) + 1))
  }

  chance(p: number): boolean {
    return this.pcg.number() < p
  }

  pick<A>(items: ReadonlyArray<A>): A {
    if (items.length === 0) throw new Error("pick from nothing")
    return items[this.pcg.integer(items.length)]!
  }
}
