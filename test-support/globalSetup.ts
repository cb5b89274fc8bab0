import type { TestProject } from "vitest/node"
import { bundleApps } from "./AppBundles.js"

/**
 * Once per test run, and again before each rerun in watch mode: the app entry points that tests
 * start as processes, bundled from the current sources.
 */
export default async function setup(project: TestProject) {
  await bundleApps()
  project.onTestsRerun(async () => {
    await bundleApps()
  })
}
