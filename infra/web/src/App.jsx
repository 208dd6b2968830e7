import { useEffect, useState } from 'react';
import { api } from './api.js';
import { previewIdsOf } from './builder.js';
import { Conversations } from './Conversations.jsx';
import { InputForm } from './InputForm.jsx';
import { Workspace } from './Workspace.jsx';

/**
 * The page: the conversation list beside the open conversation; ?conversation=<id> keeps it open across reloads.
 * ?conversation=<id>&inputRequest=<toolCallId> is where an MCP client sends its user for a secret (URL-mode
 * elicitation): the page shows that question's form, so the value never passes through the client.
 */
export function App() {
  const [items, setItems] = useState([]);
  const [open, setOpen] = useState(null);
  const [error, setError] = useState(null);
  const [question, setQuestion] = useState(null);

  const refresh = () => api('GET', '/conversations?limit=50').then((r) => setItems(r.items), (e) => setError(e.message));
  const openConversation = (id) => load(id).then((c) => { setOpen(c); remember(id); }, (e) => setError(e.message));
  const newChat = () => { setOpen(empty(`conv-${crypto.randomUUID()}`)); remember(null); };

  useEffect(() => {
    refresh();
    const params = new URLSearchParams(location.search);
    const id = params.get('conversation');
    const asked = params.get('inputRequest');
    if (id && asked) {
      newChat();
      api('GET', `/conversations/${encodeURIComponent(id)}/input-requests/${encodeURIComponent(asked)}`)
        .then(({ request }) => setQuestion({ conversationId: id, request }), (e) => setError(e.message));
    } else {
      id ? openConversation(id) : newChat();
    }
  }, []);

  return (
    <div className="page">
      <Conversations items={items} openId={open?.id} onOpen={openConversation} onNew={newChat}
        onRename={(id, title) => api('PATCH', `/conversations/${encodeURIComponent(id)}`, { title }).then(refresh, (e) => setError(e.message))}
        onDelete={(id) => api('DELETE', `/conversations/${encodeURIComponent(id)}`).then(() => {
          refresh();
          if (id === open?.id) newChat();
        }, (e) => setError(e.message))} />
      <main>
        {error && <p role="alert" className="error">{error}</p>}
        {question && (
          <section aria-label="A question from your MCP client" className="card">
            <p className="hint">Your MCP client asked for this here, so it never passes through the client. Submit, then go back to it.</p>
            {question.request.status === 'pending'
              ? <InputForm conversationId={question.conversationId} request={question.request} onSubmitted={() => {}} />
              : <p className="hint">This question is {question.request.status}: nothing to answer.</p>}
          </section>
        )}
        {open && <Workspace key={open.id} conversation={open} onTurnStart={remember}
                            onTurnEnd={(id) => { remember(id); refresh(); }} />}
      </main>
    </div>
  );
}

const empty = (id) => ({ id, messages: [], workingConfig: null, saved: null, decisions: {} });

function remember(id) {
  history.replaceState(null, '', id ? `?conversation=${encodeURIComponent(id)}` : location.pathname);
}

/**
 * A stored conversation (GET /conversations/{id}) with what its cards and builder need: each preview's status
 * (GET /previews/{id}) and the saved config it builds on (GET /configs/{configId}).
 */
async function load(id) {
  const path = `/conversations/${encodeURIComponent(id)}`;
  const c = await api('GET', path).catch((e) => { if (e.status === 404) return null; throw e; });
  if (!c) return empty(id);
  // a preview past its expiry may be gone: it can no longer be decided either way
  const status = (previewId) => api('GET', `/previews/${encodeURIComponent(previewId)}`).then((p) => p.status, () => 'expired');
  const decisions = Object.fromEntries(await Promise.all(previewIdsOf(c.messages).map(async (previewId) =>
    [previewId, { status: await status(previewId) }])));
  const configId = c.workingDraft?.configId ?? c.configId;
  const saved = configId ? await api('GET', `/configs/${encodeURIComponent(configId)}`).catch(() => null) : null;
  return { id, messages: c.messages, workingConfig: c.workingConfig, saved, decisions };
}
