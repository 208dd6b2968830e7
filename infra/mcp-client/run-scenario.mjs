// What the two SDK clients' checks (mcp-client-check.mjs, mcp-client-2026.mjs) share: reading a tool result's text,
// and running the scenario the command line names, printing what the client saw as one JSON object for the Java
// test (exit 2: no such scenario; exit 1: the client failed, with its error).

/** The text blocks of a tool result, one line each. */
export const text = (result) => (result.content || []).filter((c) => c.type === 'text').map((c) => c.text).join('\n');

/** Runs `scenarios[process.argv[2]]` and exits. */
export async function runScenario(scenarios) {
  const name = process.argv[2];
  if (!scenarios[name]) {
    console.error(`unknown scenario ${name}: one of ${Object.keys(scenarios).join(', ')}`);
    process.exit(2);
  }
  try {
    const out = await scenarios[name]();
    process.stdout.write(JSON.stringify(out));
    process.exit(0);
  } catch (e) {
    console.error(e && e.stack ? e.stack : String(e));
    process.exit(1);
  }
}
