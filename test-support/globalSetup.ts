import { bundleApps } from "./AppBundles"

/** Once per test run: the app entry points that tests start as processes, bundled from the sources. */
export default async function setup() {
  await bundleApps()
}
