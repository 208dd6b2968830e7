// Runs the official MCP conformance suite's server scenarios (@modelcontextprotocol/conformance) against Tablewright's
// /mcp. The suite's client sends no token, so it talks to a pass-through on localhost that adds the signed-in
// user's bearer token and changes nothing else (Host and Origin included: dns-rebinding-protection sends its own).
// Usage: node conformance-check.mjs [--2026] <scenario>..., with MCP_URL and MCP_TOKEN; needs Node 22 (the suite's own
// need). Without --2026: the 0.1.x suite (the 2025 revisions). With it: the 0.2.0-alpha suite at --spec-version
// 2026-07-28, judged against conformance-2026-baseline.yaml (the checks that need the suite's own fixture tools, which
// a server with Tablewright's tools does not have; each is named there with why).
// Prints {"<scenario>": {"exit": n, "output": "..."}} as JSON.
import http from 'node:http';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import path from 'node:path';

const target = new URL(process.env.MCP_URL);
const token = process.env.MCP_TOKEN;
const here = path.dirname(fileURLToPath(import.meta.url));
const modern = process.argv[2] === '--2026';
const cli = path.join(here, modern ? 'node_modules/conformance-2026/dist/index.js' : 'node_modules/@modelcontextprotocol/conformance/dist/index.js');
const extra = modern ? ['--spec-version', '2026-07-28', '--expected-failures', path.join(here, 'conformance-2026-baseline.yaml')] : [];

const proxy = http.createServer((req, res) => {
  const headers = { ...req.headers };
  if (!headers.authorization) headers.authorization = `Bearer ${token}`;
  const upstream = http.request({ host: target.hostname, port: target.port, method: req.method, path: req.url, headers }, (answer) => {
    res.writeHead(answer.statusCode, answer.headers);
    answer.pipe(res);
  });
  upstream.on('error', (e) => { res.writeHead(502); res.end(String(e)); });
  req.pipe(upstream);
});
await new Promise((resolve) => proxy.listen(0, '127.0.0.1', resolve));
const url = `http://localhost:${proxy.address().port}${target.pathname}`;

const results = {};
for (const scenario of process.argv.slice(modern ? 3 : 2)) {
  // spawned, not spawnSync: the pass-through runs in this process and must keep serving while the suite runs
  const run = await new Promise((resolve) => {
    const child = spawn(process.execPath, [cli, 'server', '--url', url, '--scenario', scenario, ...extra], { cwd: here });
    let output = '';
    child.stdout.on('data', (d) => { output += d; });
    child.stderr.on('data', (d) => { output += d; });
    child.on('close', (code) => resolve({ exit: code, output }));
  });
  results[scenario] = run;
}
proxy.close();
process.stdout.write(JSON.stringify(results));
