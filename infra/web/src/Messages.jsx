import { useEffect, useRef } from 'react';
import { InputForm } from './InputForm.jsx';
import { PreviewCard } from './PreviewCard.jsx';

/** The conversation: text, tool steps as they run, and the custom data parts as cards and forms. */
export function Messages({ messages, conversationId, decisions, keeping, onDecide, onInputSubmitted }) {
  // A tool call's part, by its id: an input form hides once its call has an output.
  const parts = messages.flatMap((m) => m.parts);
  const toolParts = new Map(parts.filter((p) => p.toolCallId).map((p) => [p.toolCallId, p]));
  const asking = new Set(parts.filter((p) => p.type === 'data-user-input-request').map((p) => p.data.toolCallId));
  const list = useRef(null);
  useEffect(() => { list.current.scrollTop = list.current.scrollHeight; }, [messages]); // follow the stream
  return (
    <ol className="messages" aria-label="Messages" ref={list}>
      {messages.map((message) => (
        <li key={message.id} className={`message ${message.role}`}>
          {message.parts.map((part, i) => {
            if (part.type === 'text') return <p key={i} className="text">{part.text}</p>;
            if (part.type === 'tool-accept_preview') return null; // its preview card shows the approval and its outcome
            if (part.type.startsWith('tool-')) return <ToolStep key={i} part={part} asking={asking.has(part.toolCallId)} />;
            if (part.type === 'data-table-config-preview') {
              return <PreviewCard key={i} preview={part.data} decision={decisions[part.data.previewId]}
                                  keeping={keeping[part.data.previewId]?.part} onDecide={onDecide} />;
            }
            if (part.type === 'data-user-input-request') {
              const call = toolParts.get(part.data.toolCallId);
              if (call?.state === 'output-available' || call?.state === 'output-error') return null;
              return <InputForm key={i} conversationId={conversationId} request={part.data} onSubmitted={onInputSubmitted} />;
            }
            if (part.type === 'data-validation-errors') return <ValidationErrors key={i} data={part.data} />;
            return null; // step-start and parts this page does not show
          })}
          {message.metadata?.stopped && <p className="note">Stopped</p>}
        </li>
      ))}
    </ol>
  );
}

const STATES = { 'input-streaming': 'preparing', 'input-available': 'running', 'output-available': 'done', 'output-error': 'failed' };

/** One tool call: its name, its state, and a one-line summary of its result. */
function ToolStep({ part, asking }) {
  const name = part.type.slice('tool-'.length);
  const state = asking && part.state === 'input-available' ? 'waiting for you' : STATES[part.state] ?? part.state;
  return (
    <p className={`tool ${part.state}`} data-tool={name}>
      <span className="state">{state}</span> <code>{name}</code>
      {summary(part) && <span className="summary"> — {summary(part)}</span>}
    </p>
  );
}

function summary(part) {
  if (part.state === 'output-error') return part.errorText;
  if (part.state !== 'output-available') return '';
  const out = part.output ?? {};
  if (out.applied?.length) return out.applied.join('; ');
  if (out.previewId) return `preview ready: ${out.description ?? out.previewId}`;
  if (Array.isArray(out.tables)) return `${out.tables.length} table(s) found in ${out.database}`;
  if (out.errors?.length) return `${out.errors.length} error(s): ${out.errors[0].message}`;
  return JSON.stringify(out).slice(0, 160);
}

/** A data-validation-errors part: the model could not produce a valid config. */
function ValidationErrors({ data }) {
  return (
    <article aria-label="Validation errors" className="card errors">
      <h3>No valid config from {data.toolName}</h3>
      <ul>{data.errors.map((e, i) => <li key={i}><code>{e.field}</code> {e.message}</li>)}</ul>
    </article>
  );
}
