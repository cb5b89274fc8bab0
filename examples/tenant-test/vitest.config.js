import { defineConfig } from "vitest/config"

// The example's own settings, so that a vitest configuration in a folder above is never used.
export default defineConfig({
  test: {
    include: ["*.test.js"]
  }
})
