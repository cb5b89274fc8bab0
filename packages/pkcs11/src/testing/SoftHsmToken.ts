import { execFileSync } from "node:child_process"
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { Redacted } from "effect"
import { defaultLabelPrefix, type Pkcs11Settings } from "../Pkcs11Settings.js"

/** Where Debian's `softhsm2` package puts the module. */
export const softHsmModule = "/usr/lib/softhsm/libsofthsm2.so"

const hasUtil = (): boolean => {
  try {
    execFileSync("softhsm2-util", ["--version"], { stdio: "ignore" })
    return true
  } catch {
    return false
  }
}

/** Whether SoftHSM2 is installed here (the only reason the token tests may skip). */
export const softHsmInstalled = existsSync(softHsmModule) && hasUtil()

export const skipReason = `SoftHSM2 is not installed (${softHsmModule} and softhsm2-util): apt-get install softhsm2 to run the PKCS#11 tests`

export interface TestToken {
  readonly label: string
  readonly pin: string
  readonly settings: Pkcs11Settings
  /** Deletes the token directory (the keys with it). */
  readonly remove: () => void
}

let configDirectory: string | undefined

/**
 * Initialises a throw-away SoftHSM2 token in a temporary directory. SoftHSM reads its
 * configuration from SOFTHSM2_CONF when the module initialises, so the process gets one
 * configuration (and token directory) the first time; every token of the run lives there.
 */
export const createTestToken = (label = `test-${process.pid}-${Math.random().toString(36).slice(2, 8)}`, sessions = 4): TestToken => {
  if (configDirectory === undefined) {
    configDirectory = mkdtempSync(join(tmpdir(), "collector-softhsm-"))
    mkdirSync(join(configDirectory, "tokens"))
    const config = join(configDirectory, "softhsm2.conf")
    writeFileSync(config, `directories.tokendir = ${join(configDirectory, "tokens")}\nobjectstore.backend = file\nlog.level = ERROR\nslots.removable = false\n`)
    process.env.SOFTHSM2_CONF = config
  }
  const pin = "4711-test"
  execFileSync("softhsm2-util", ["--init-token", "--free", "--label", label, "--pin", pin, "--so-pin", "so-4711-test"], { stdio: "ignore", env: process.env })
  const directory = configDirectory
  return {
    label,
    pin,
    settings: { module: softHsmModule, token: { label }, pin: Redacted.make(pin), sessions, labelPrefix: defaultLabelPrefix },
    remove: () => rmSync(directory, { recursive: true, force: true })
  }
}
