// Preloaded into every firecrawl-cli process check.mjs starts (node -r cli-guard.cjs <cli>).
//
// WEBDATA_CHECK_ONLY_URL=<mock base URL>: the CLI may reach the mock and nothing else. A fetch to
// any other address (the npm registry the update notice and `doctor` ask, the hosted service)
// fails as an unreachable network would, and is reported on stderr, so that a step proves what
// it runs offline and never depends on the network.
//
// WEBDATA_CHECK_TREE=1: instead of running a command, print the CLI's whole command tree (hidden
// commands and subcommands included) as JSON and exit: the list check.mjs checks coverage of.
"use strict";
const { createRequire } = require("node:module");

const only = process.env.WEBDATA_CHECK_ONLY_URL;
if (only && typeof globalThis.fetch === "function") {
  const allowed = new URL(only).origin;
  const realFetch = globalThis.fetch;
  globalThis.fetch = (input, init) => {
    const target = typeof input === "string" ? input : input?.url ?? String(input);
    let origin = "";
    try {
      origin = new URL(target).origin;
    } catch {
      // not absolute: let fetch refuse it as it would
    }
    if (origin && origin !== allowed) {
      process.stderr.write(`webdata-check: refused a request to ${target} (only ${allowed})\n`);
      return Promise.reject(new TypeError("fetch failed"));
    }
    return realFetch(input, init);
  };
}

function walk(command, prefix) {
  const out = [];
  for (const sub of command.commands) {
    const path = [...prefix, sub.name()];
    out.push({
      path: path.join(" "),
      aliases: sub.aliases(),
      hidden: Boolean(sub._hidden),
      runs: Boolean(sub._actionHandler),
    });
    out.push(...walk(sub, path));
  }
  return out;
}

if (process.env.WEBDATA_CHECK_TREE) {
  // The CLI's own commander (the one its entry point requires), patched before the entry runs.
  const { Command } = createRequire(process.argv[1])("commander");
  Command.prototype.parseAsync = async function printTree() {
    process.stdout.write(JSON.stringify(walk(this, [])) + "\n");
    process.exit(0);
  };
}
