// The official AG-UI packages on Tablewright's /agui door.
//   node agui-client-check.mjs validate <sse-body-file>
//     parses a recorded event stream with @ag-ui/core's schemas and runs it through @ag-ui/client's verifyEvents
//     (the protocol's ordering rules); prints {types, invalid, verifyError, states}.
//   node agui-client-check.mjs run <url> <token> <scenario-json-file>
//     runs HttpAgent (runAgent) once per step of the scenario on one thread; prints what each run saw.
// Every event is checked with EventSchema; the states compare each snapshot with the deltas applied to the one before.
import { readFileSync } from "node:fs";
import { EventSchema } from "@ag-ui/core/schemas";
import { HttpAgent, verifyEvents } from "@ag-ui/client";
import fastJsonPatch from "fast-json-patch";
import { from, lastValueFrom, toArray } from "rxjs";

const { applyPatch, deepClone } = fastJsonPatch;

function parseSse(body) {
  const events = [];
  for (const block of body.split("\n\n")) {
    const data = block.split("\n").filter((l) => l.startsWith("data:")).map((l) => l.slice(5).replace(/^ /, ""));
    if (data.length > 0) events.push(JSON.parse(data.join("\n")));
  }
  return events;
}

/** Each event against its schema; and the state: every snapshot must equal the previous one with the deltas applied. */
function check(events) {
  const invalid = [];
  const states = [];
  let applied;
  for (const [i, e] of events.entries()) {
    const r = EventSchema.safeParse(e);
    if (!r.success) invalid.push({ index: i, type: e.type, issues: r.error.issues.map((x) => `${x.path.join(".")}: ${x.message}`) });
    if (e.type === "STATE_SNAPSHOT") {
      states.push({ snapshot: e.snapshot, appliedDeltas: applied === undefined ? null : applied, equal: applied === undefined ? null : JSON.stringify(applied) === JSON.stringify(e.snapshot) });
      applied = deepClone(e.snapshot);
    } else if (e.type === "STATE_DELTA") {
      applied = applyPatch(applied, deepClone(e.delta), true, false).newDocument;
    }
  }
  return { invalid, states };
}

async function verify(events) {
  try {
    await lastValueFrom(from(events).pipe(verifyEvents(false), toArray()));
    return null;
  } catch (e) {
    return String(e?.message ?? e);
  }
}

const [mode, ...args] = process.argv.slice(2);
if (mode === "validate") {
  const events = parseSse(readFileSync(args[0], "utf8"));
  const { invalid, states } = check(events);
  console.log(JSON.stringify({ types: events.map((e) => e.type), events, invalid, states, verifyError: await verify(events) }));
} else if (mode === "run") {
  const [url, token, scenarioFile] = args;
  const scenario = JSON.parse(readFileSync(scenarioFile, "utf8"));
  const agent = new HttpAgent({ url, headers: token ? { authorization: `Bearer ${token}` } : {}, threadId: scenario.threadId, initialState: scenario.state });
  const runs = [];
  // the interrupts each run ended on: a step answers them with `answer` ({status, payload}), those of run `answerRun`
  // (default: the run before it)
  const interruptsOf = (run) => run?.events?.find((e) => e.type === "RUN_FINISHED")?.outcome?.interrupts ?? [];
  for (const step of scenario.steps) {
    if (step.answer) {
      const from = runs[step.answerRun ?? runs.length - 1];
      step.resume = interruptsOf(from).map((i) => ({ interruptId: i.id, status: step.answer.status, ...(step.answer.payload ? { payload: step.answer.payload } : {}) }));
    }
    if (step.message) agent.addMessage({ id: step.message.id, role: "user", content: step.message.content });
    if (step.toolResult) agent.addMessage({ id: step.toolResult.id, role: "tool", toolCallId: step.toolResult.toolCallId, content: step.toolResult.content });
    if (step.raw) {
      // A request HttpAgent would refuse to send (it checks open interrupts itself): the server's own rules answer it.
      const body = { threadId: scenario.threadId, runId: step.runId ?? crypto.randomUUID(), messages: agent.messages, state: agent.state,
        tools: step.tools ?? [], context: [], forwardedProps: {}, ...(step.resume ? { resume: step.resume } : {}), ...(step.body ?? {}) };
      const abort = new AbortController();
      const response = await fetch(url, { method: "POST", signal: abort.signal, headers: { "content-type": "application/json", ...(step.token === undefined ? { authorization: `Bearer ${token}` } : step.token ? { authorization: `Bearer ${step.token}` } : {}) }, body: JSON.stringify(body) });
      if (step.drop) {
        // the client goes away after the first event: the turn must go on and be stored
        const reader = response.body.getReader();
        let seen = "";
        while (!seen.includes("\n\n")) {
          const { value, done } = await reader.read();
          if (done) break;
          seen += new TextDecoder().decode(value);
        }
        abort.abort();
        runs.push({ status: response.status, dropped: true, types: parseSse(seen.slice(0, seen.indexOf("\n\n") + 2)).map((e) => e.type), events: [], invalid: [], states: [] });
        continue;
      }
      const text = await response.text();
      const sse = (response.headers.get("content-type") ?? "").startsWith("text/event-stream");
      const events = sse ? parseSse(text) : [];
      const { invalid, states } = check(events);
      runs.push({ status: response.status, body: sse ? null : text, types: events.map((e) => e.type), events, invalid, states });
      continue;
    }
    const seen = [];
    let error = null;
    try {
      await agent.runAgent({ runId: step.runId, tools: step.tools ?? [], resume: step.resume }, { onEvent: ({ event }) => { seen.push(event); } });
    } catch (e) {
      error = String(e?.message ?? e);
    }
    const { invalid, states } = check(seen);
    runs.push({ types: seen.map((e) => e.type), events: seen, invalid, states, error, messages: agent.messages, state: agent.state });
  }
  console.log(JSON.stringify({ runs }));
} else {
  console.error("usage: agui-client-check.mjs validate <file> | run <url> <token> <scenario-file>");
  process.exit(2);
}
