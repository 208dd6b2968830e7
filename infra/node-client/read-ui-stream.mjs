// Reads a chat turn's response body (a UI message stream, as the chat function sends it) with the AI SDK's own
// code, the way useChat does: parseJsonEventStream + uiMessageChunkSchema (every chunk validated), then
// readUIMessageStream (chunks assembled into the assistant UIMessage), then validateUIMessages (the message is
// one a client can send back). Prints {"chunkTypes": [...], "errors": [...], "message": {...}} on stdout; exits 1 on any problem.
//
// usage: node read-ui-stream.mjs <body-file> [<earlier-assistant-message.json>]
import { readFileSync } from 'node:fs';
import { parseJsonEventStream, readUIMessageStream, uiMessageChunkSchema, validateUIMessages } from 'ai';

const [bodyFile, continueFile] = process.argv.slice(2);
const body = readFileSync(bodyFile);
const continued = continueFile ? JSON.parse(readFileSync(continueFile, 'utf8')) : undefined;

const bytes = new ReadableStream({
  start(controller) {
    controller.enqueue(new Uint8Array(body));
    controller.close();
  },
});

const chunkTypes = [];
const chunks = parseJsonEventStream({ stream: bytes, schema: uiMessageChunkSchema }).pipeThrough(
  new TransformStream({
    transform(result, controller) {
      if (!result.success) {
        throw new Error('chunk rejected by uiMessageChunkSchema: ' + (result.error?.message ?? result.error));
      }
      chunkTypes.push(result.value.type);
      controller.enqueue(result.value);
    },
  }),
);

// `error` chunks are what the user is shown (useChat's `error`); they are reported, not fatal.
const errors = [];
let message;
for await (const m of readUIMessageStream({
  message: continued,
  stream: chunks,
  onError: (e) => { errors.push(String(e?.message ?? e)); },
})) {
  message = m;
}
if (!message) {
  throw new Error('the stream produced no message');
}
await validateUIMessages({ messages: [message] });
process.stdout.write(JSON.stringify({ chunkTypes, errors, message }));
