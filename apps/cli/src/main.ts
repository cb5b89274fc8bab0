import { usage } from "./Usage.js"

// `--help` (and no command at all) is answered before Effect and the database adapter are loaded:
// their modules are most of the half second a CLI call takes to start.
const args = process.argv.slice(2)
if (args.length === 0 || args.includes("--help") || args.includes("-h")) console.log(usage)
else await import("./Cli.js")
