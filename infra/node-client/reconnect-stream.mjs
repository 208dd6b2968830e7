// Reconnects to a chat's running turn the way useChat({ resume: true }) does on mount: the AI SDK 7 client's own
// DefaultChatTransport.reconnectToStream (GET {api}/{chatId}/stream with the given headers), then reads what it
// returns with readUIMessageStream into the assistant message. Prints {"none": true} when the server answers 204
// (nothing running), else {"chunkTypes": [...], "message": {...}}; exits 1 on any problem.
//
// usage: node reconnect-stream.mjs <chat-url> <chat-id> <bearer-token>
import { DefaultChatTransport, readUIMessageStream } from 'ai7';

const [api, chatId, token] = process.argv.slice(2);
const transport = new DefaultChatTransport({ api, headers: { Authorization: `Bearer ${token}` } });
const stream = await transport.reconnectToStream({ chatId });
if (stream === null) {
  process.stdout.write(JSON.stringify({ none: true }));
  process.exit(0);
}
const chunkTypes = [];
const counted = stream.pipeThrough(new TransformStream({
  transform(chunk, controller) {
    chunkTypes.push(chunk.type);
    controller.enqueue(chunk);
  },
}));
let message;
for await (const m of readUIMessageStream({ stream: counted, onError: (e) => { throw e; } })) {
  message = m;
}
if (!message) {
  throw new Error('the resumed stream produced no message');
}
process.stdout.write(JSON.stringify({ chunkTypes, message }));
