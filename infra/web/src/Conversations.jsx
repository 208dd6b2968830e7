import { useState } from 'react';

/** The user's conversations (GET /conversations): open one, rename, delete, or start a new chat. */
export function Conversations({ items, openId, onOpen, onNew, onRename, onDelete }) {
  const [renaming, setRenaming] = useState(null); // {id, title}
  return (
    <nav aria-label="Conversations" className="conversations">
      <h1>Tablewright</h1>
      <button onClick={onNew}>New chat</button>
      <h2>Conversations</h2>
      <ul>
        {items.map((c) => (
          <li key={c.id} className={c.id === openId ? 'open' : ''}>
            {renaming?.id === c.id ? (
              <form onSubmit={(e) => { e.preventDefault(); onRename(c.id, renaming.title); setRenaming(null); }}>
                <input aria-label="Title" value={renaming.title} maxLength={200} autoFocus
                       onChange={(e) => setRenaming({ id: c.id, title: e.target.value })} />
                <button type="submit">Save</button>
              </form>
            ) : (
              <>
                <button className="title" aria-current={c.id === openId ? 'page' : undefined} onClick={() => onOpen(c.id)}>{c.title}</button>
                <button aria-label={`Rename ${c.title}`} onClick={() => setRenaming({ id: c.id, title: c.title })} className="small">Rename</button>
                <button aria-label={`Delete ${c.title}`} onClick={() => onDelete(c.id)} className="small">Delete</button>
              </>
            )}
          </li>
        ))}
      </ul>
    </nav>
  );
}
