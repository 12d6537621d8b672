// `palee mcp` benchmark (issue 20), run by scripts/bench.mjs: the time from spawning `node cli.js mcp` to the
// answer of `tools/list`, and of a `context` call, on a vault of 10 000 confirmed sessions. Each repetition is a
// fresh server process driven by the SDK's own client over stdio, as a desktop assistant would drive it.
import process from "node:process";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";

export const MCP_TARGETS = { toolsListMs: 300, contextMs: 200 };
const WARM_CALLS = 5;

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** One server: start-up to tools/list, the first context call, and the median of a few more. */
async function oneServer(cli, vault, topic, env) {
  const started = performance.now();
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [cli, "mcp", "--vault", vault],
    env: { PATH: process.env.PATH ?? "", ...env },
    stderr: "ignore",
  });
  const client = new Client({ name: "palee-bench", version: "1.0.0" });
  try {
    await client.connect(transport);
    const { tools } = await client.listTools();
    const toolsListMs = performance.now() - started;
    if (tools.length !== 11) throw new Error(`palee mcp listed ${tools.length} tools, not 11`);
    const timedContext = async () => {
      const t = performance.now();
      const r = await client.callTool({ name: "context", arguments: { topic } });
      if (r.isError) throw new Error(`context failed: ${JSON.stringify(r.content)}`);
      return performance.now() - t;
    };
    const firstContextMs = await timedContext();
    const warm = [];
    for (let i = 0; i < WARM_CALLS; i++) warm.push(await timedContext());
    return { toolsListMs, firstContextMs, warmContextMs: median(warm) };
  } finally {
    await client.close();
  }
}

/** Medians over `reps` fresh servers on `vault` (a generated vault of `size` sessions). */
export async function measureMcp({ cli, vault, size, topic, reps, env = {} }) {
  await oneServer(cli, vault, topic, env); // warm the file cache, as the other measurements do
  const samples = [];
  for (let rep = 0; rep < reps; rep++) samples.push(await oneServer(cli, vault, topic, env));
  const of = (key) => median(samples.map((s) => s[key]));
  return {
    size,
    reps,
    toolsListMs: of("toolsListMs"),
    firstContextMs: of("firstContextMs"),
    warmContextMs: of("warmContextMs"),
  };
}

/** Prints the section; returns whether both targets pass. */
export function reportMcp(r, sizes) {
  const fmt = (ms) => ms.toFixed(0);
  console.log(
    `\npalee mcp (issue 20), ${r.size.toLocaleString("en-US")} confirmed sessions; medians of ${r.reps} fresh ` +
      `servers over stdio (SDK client).\n`,
  );
  console.log("| start-up → tools/list | first context call | later context calls | dist/cli.js | dist/mcp.js |");
  console.log("|---:|---:|---:|---:|---:|");
  const kib = (bytes) => `${(bytes / 1024).toFixed(1)} KiB`;
  console.log(
    `| ${fmt(r.toolsListMs)} ms | ${fmt(r.firstContextMs)} ms | ${fmt(r.warmContextMs)} ms | ` +
      `${kib(sizes.cli)} | ${kib(sizes.mcp)} |`,
  );
  const listOk = r.toolsListMs <= MCP_TARGETS.toolsListMs;
  const contextOk = r.firstContextMs <= MCP_TARGETS.contextMs;
  console.log(`\n- ${listOk ? "PASS" : "FAIL"} tools/list ≤ ${MCP_TARGETS.toolsListMs} ms after start-up`);
  console.log(`- ${contextOk ? "PASS" : "FAIL"} context call ≤ ${MCP_TARGETS.contextMs} ms (the first one)`);
  return listOk && contextOk;
}
