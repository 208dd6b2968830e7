// A chat whose preview is kept or dropped through the AI SDK's own tool approval, as useChat does it: the given `ai`
// package's AbstractChat (what @ai-sdk/react's Chat extends, here with a plain state), DefaultChatTransport with
// body {toolApprovals: true}, sendAutomaticallyWhen: lastAssistantMessageIsCompleteWithApprovalResponses. Sends
// `text`, waits for the turn to end on a tool part in approval-requested, answers it with addToolApprovalResponse
// (approve or deny, with an optional reason), and waits for the automatic resend to end.
//
// Prints {"requested": <the assistant message after turn 1>, "messages": [...all messages at the end],
//         "requests": [<each request body sent>], "error": <the chat's error or null>}; exits 1 on any problem.
// usage: node approval-chat.mjs <package> <chat-url> <bearer-token> <chat-id> <text> <approve|deny|none> [reason]
const [pkg, api, token, chatId, text, decision, reason] = process.argv.slice(2);
const { AbstractChat, DefaultChatTransport, lastAssistantMessageIsCompleteWithApprovalResponses } = await import(pkg);

class PlainState {
  constructor() { this.messages = []; this.status = 'ready'; this.error = undefined; }
  pushMessage(m) { this.messages = [...this.messages, m]; }
  popMessage() { this.messages = this.messages.slice(0, -1); }
  replaceMessage(i, m) { this.messages = [...this.messages.slice(0, i), m, ...this.messages.slice(i + 1)]; }
  snapshot(thing) { return structuredClone(thing); }
}

class NodeChat extends AbstractChat {
  constructor(init) { super({ ...init, state: new PlainState() }); }
}

const requests = [];
const recordingFetch = async (url, init) => {
  requests.push(JSON.parse(init.body));
  return fetch(url, init);
};
const chat = new NodeChat({
  id: chatId,
  transport: new DefaultChatTransport({ api, headers: { Authorization: `Bearer ${token}` }, body: { toolApprovals: true }, fetch: recordingFetch }),
  sendAutomaticallyWhen: lastAssistantMessageIsCompleteWithApprovalResponses,
});

const settle = async () => {
  for (let i = 0; i < 600 && (chat.status === 'submitted' || chat.status === 'streaming' || chat.status === undefined); i++) {
    await new Promise((r) => setTimeout(r, 50));
  }
};

await chat.sendMessage({ text });
await settle();
const requested = structuredClone(chat.messages.at(-1));
const part = requested?.parts?.find((p) => p.type === 'tool-accept_preview' && p.state === 'approval-requested');
if (part && decision !== 'none') {
  await chat.addToolApprovalResponse({ id: part.approval.id, approved: decision === 'approve', ...(reason ? { reason } : {}) });
  await new Promise((r) => setTimeout(r, 100));
  await settle();
}
process.stdout.write(JSON.stringify({ requested, messages: chat.messages, requests, error: chat.error ? String(chat.error.message ?? chat.error) : null }));
