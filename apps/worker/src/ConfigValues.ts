import { Config, Duration } from "effect"

/** An integer setting with a lower bound and a default; the message names the variable. */
export const integerAtLeast = (name: string, minimum: number, fallback: number, unit = "") =>
  Config.integer(name).pipe(
    Config.validate({ message: `${name} must be an integer of at least ${minimum}${unit}`, validation: (n) => n >= minimum }),
    Config.withDefault(fallback)
  )

/** A duration setting given in milliseconds, with a lower bound and a default. */
export const millisAtLeast = (name: string, minimum: number, fallback: Duration.Duration) =>
  Config.map(integerAtLeast(name, minimum, Duration.toMillis(fallback), " (milliseconds)"), Duration.millis)
