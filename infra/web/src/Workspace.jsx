import { useEffect, useRef, useState } from 'react';
import { useChat } from '@ai-sdk/react';
import {
  DefaultChatTransport, lastAssistantMessageIsCompleteWithApprovalResponses, lastAssistantMessageIsCompleteWithToolCalls,
} from 'ai';
import { api, authHeaders, chatUrl, modelInfo, stopTurn, turnStreamUrl } from './api.js';
import { keepCalls, latestPreview, latestToolConfig } from './builder.js';
import { Messages } from './Messages.jsx';
import { TableBuilder } from './TableBuilder.jsx';

/** The tools this page runs itself, declared to the chat with each request (docs/stream-protocol.md#client-side-tools). */
const CLIENT_TOOLS = [{
  name: 'highlight_column',
  description: "Scrolls the table builder to one of the config's columns and highlights it for the user.",
  inputSchema: { type: 'object', properties: { column: { type: 'string', description: 'the column key' } }, required: ['column'] },
}];

/** The chat's transport, telling onNothingRunning when a reconnect finds no running turn (204). */
class ChatTransport extends DefaultChatTransport {
  constructor(options, onNothingRunning) {
    super(options);
    this.onNothingRunning = onNothingRunning;
  }

  async reconnectToStream(options) {
    const stream = await super.reconnectToStream(options);
    if (stream === null) this.onNothingRunning();
    return stream;
  }
}

/** Requests to the chat function URL. The server keeps the conversation: only the newest message is sent. */
const chatTransport = (onNothingRunning) => new ChatTransport({
  api: chatUrl(),
  headers: authHeaders, // a function: read at each request
  prepareSendMessagesRequest: ({ id, messages, trigger, messageId }) => ({
    // toolApprovals: a preview is kept or dropped through the AI SDK's tool approval (docs/stream-protocol.md#tool-approvals)
    body: { id, trigger, messageId, message: messages.at(-1), context: { page: 'tables' }, clientTools: CLIENT_TOOLS, toolApprovals: true },
  }),
  // GET {chat}/{id}/stream: the running turn from its start, then live (204: nothing runs); docs/stream-protocol.md
  prepareReconnectToStreamRequest: ({ id }) => ({ api: turnStreamUrl(id) }),
}, onNothingRunning);

/**
 * Which model answers, when config.json names it. The offline demo model gets a visible note: it is a few fixed
 * rules, and whoever tries the page should know that before judging the assistant by it.
 */
function ModelNote({ model }) {
  if (!model) return null;
  if (model.kind === 'offline-demo') {
    return (
      <p role="note" aria-label="Model" className="model-note demo">
        <strong>Offline demo model</strong> — no model key is set, so a few fixed rules answer instead of a language
        model. They understand phrasings like “Show stock levels with their warehouse name”, “Only show quantities
        above 100”, “Sort by quantity descending”; type <em>help</em> for the rest. Start the local stack with
        OPENAI_API_KEY set for a live model.
      </p>
    );
  }
  return <p role="note" aria-label="Model" className="model-note">Model: {model.label}</p>;
}

/** One conversation: the chat (useChat) beside the table builder it fills in. */
export function Workspace({ conversation, onTurnStart, onTurnEnd }) {
  const [saved, setSaved] = useState(conversation.saved); // {configId, version, config} last accepted
  const [decisions, setDecisions] = useState(conversation.decisions); // previewId -> {status, version}
  const [highlighted, setHighlighted] = useState(null);
  const [input, setInput] = useState('');

  const nothingRunning = useRef(() => {});
  const [transport] = useState(() => chatTransport(() => nothingRunning.current()));
  const { messages, setMessages, sendMessage, status, stop, error, addToolOutput, addToolApprovalResponse } = useChat({
    id: conversation.id,
    messages: conversation.messages,
    transport,
    // A turn outlives the page: on mount (a reload, another tab) the running turn of this conversation streams on here.
    resume: true,
    // A client tool's output, or the answer to the call that keeps a preview, goes back to the server by itself once
    // every call of the last step has one.
    sendAutomaticallyWhen: (options) => lastAssistantMessageIsCompleteWithToolCalls(options)
      || lastAssistantMessageIsCompleteWithApprovalResponses(options),
    onToolCall: ({ toolCall }) => {
      if (toolCall.toolName !== 'highlight_column') return;
      const column = toolCall.input.column;
      const element = document.querySelector(`[data-column="${CSS.escape(column)}"]`);
      if (element) {
        element.scrollIntoView({ block: 'center' });
        setHighlighted(column);
        addToolOutput({ tool: 'highlight_column', toolCallId: toolCall.toolCallId, output: { highlighted: column } });
      } else {
        addToolOutput({ tool: 'highlight_column', toolCallId: toolCall.toolCallId, state: 'output-error', errorText: `no column ${column} in the builder` });
      }
    },
    onFinish: () => onTurnEnd(conversation.id),
  });

  // No turn runs, yet the conversation as this page read it ends with the user's message: the turn ended (a stop, the
  // end of its answer) between that read and the reconnect, and saved its answer meanwhile. Read the answer once more.
  nothingRunning.current = () => {
    // only for what the page read: a message just sent on a new conversation may not be stored yet (a 404)
    if (conversation.messages.at(-1)?.role !== 'user' || messages.length !== conversation.messages.length) return;
    api('GET', `/conversations/${encodeURIComponent(conversation.id)}`).then((c) => {
      if (c.messages.length > messages.length) setMessages(c.messages);
    }, () => {});
  };

  // previewId -> the accept_preview call that keeps it, as the chat streamed it (approval, then its outcome)
  const keeping = keepCalls(messages);
  const lastMessageId = messages.at(-1)?.id;
  useEffect(() => {
    // a preview kept through its approval: the builder's saved config is that version now
    for (const [previewId, { part, preview }] of Object.entries(keeping)) {
      if (part.state === 'output-available' && decisions[previewId]?.version !== part.output.version) {
        setSaved({ configId: part.output.configId, version: part.output.version, config: preview?.config });
        setDecisions((d) => ({ ...d, [previewId]: { status: 'accepted', version: part.output.version } }));
      } else if (part.state === 'output-denied' && decisions[previewId]?.status !== 'rejected') {
        setDecisions((d) => ({ ...d, [previewId]: { status: 'rejected' } }));
      }
    }
  }, [messages]);

  async function decide(previewId, action) {
    const call = keeping[previewId];
    if (call?.part.state === 'approval-requested' && call.messageId === lastMessageId) {
      // the open approval of the last answer: answered in the chat, which goes on in the same message
      await addToolApprovalResponse({ id: call.part.approval.id, approved: action === 'accept' });
      return;
    }
    // an older card (its approval closed by a newer message) or no approval: the preview routes
    const answer = await api('POST', `/previews/${encodeURIComponent(previewId)}/${action}`);
    if (action === 'accept') {
      setSaved(answer.config);
      setDecisions((d) => ({ ...d, [previewId]: { status: 'accepted', version: answer.config.version } }));
    } else {
      setDecisions((d) => ({ ...d, [previewId]: { status: 'rejected' } }));
    }
  }

  const preview = latestPreview(messages);
  const pending = preview && (decisions[preview.previewId]?.status ?? 'pending') === 'pending' ? preview : null;
  const working = latestToolConfig(messages) ?? conversation.workingConfig ?? saved?.config ?? null;
  const busy = status === 'submitted' || status === 'streaming';

  function send(event) {
    event.preventDefault();
    if (!input.trim() || busy) return;
    sendMessage({ text: input });
    setInput('');
    onTurnStart(conversation.id); // a reload from here on reopens this conversation and resumes its turn
  }

  // useChat's stop() only lets go of the stream; the turn itself runs on the server until it is told to stop.
  function stopAnswer() {
    stopTurn(conversation.id).catch(() => {});
    stop();
  }

  return (
    <div className="workspace">
      <section aria-label="Chat" className="chat">
        <ModelNote model={modelInfo()} />
        <Messages messages={messages} conversationId={conversation.id} decisions={decisions} keeping={keeping} onDecide={decide}
                  onInputSubmitted={() => sendMessage()} />
        {error && <p role="alert" className="error">The chat failed: {error.message}</p>}
        <form className="composer" onSubmit={send}>
          <label htmlFor="message">Message</label>
          <textarea id="message" rows={2} value={input} onChange={(e) => setInput(e.target.value)}
                    onKeyDown={(e) => e.key === 'Enter' && !e.shiftKey && send(e)} placeholder="Ask for a table, e.g. stock levels with their warehouse name" />
          <button type="submit" disabled={busy || !input.trim()}>Send</button>
          {busy && <button type="button" onClick={stopAnswer}>Stop</button>}
        </form>
      </section>
      <TableBuilder config={pending ? pending.config : working} reference={saved?.config ?? null} pending={!!pending}
                    saved={saved} sample={pending ?? preview} highlighted={highlighted} />
    </div>
  );
}
