import { marked, panelsOf } from './builder.js';

/**
 * The working config as panels. With a pending preview, {@code reference} is the saved config (null for a new
 * one) and each item the preview adds or removes is marked "pending"; the live table shows the preview's sample.
 */
export function TableBuilder({ config, reference, pending, saved, sample, highlighted }) {
  const now = panelsOf(config);
  const before = pending ? panelsOf(reference) : null;
  return (
    <section aria-label="Table builder" className="builder">
      <h2>Table builder</h2>
      <p className="status">
        {saved ? <strong>{saved.config?.name ?? saved.configId} · version {saved.version}</strong> : 'Not saved yet'}
        {pending && <span className="badge pending"> preview pending</span>}
      </p>
      {!config && <p className="hint">Ask the assistant for a table: the config it builds shows here.</p>}
      {config && (
        <>
          <Panel title="Base table" items={[{ key: 'base', text: now.base ?? '—', detail: '', mark: null }]} />
          {['Columns', 'Joins', 'Filters', 'Sort', 'Page size'].map((title) => (
            <Panel key={title} title={title} items={marked(now[title], before?.[title])}
                   highlighted={title === 'Columns' ? highlighted : null} />
          ))}
        </>
      )}
      {sample && <SampleTable label={pending ? "Live table (preview sample, pending)" : "Live table"}
                              columns={sample.columns ?? []} rows={sample.rows ?? []} more={sample.more} />}
    </section>
  );
}

function Panel({ title, items, highlighted }) {
  return (
    <section aria-label={title} className="panel">
      <h3>{title}</h3>
      {items.length === 0 ? <p className="hint">none</p> : (
        <ul>
          {items.map((item) => (
            <li key={item.key + item.mark} data-column={title === 'Columns' ? item.key : undefined}
                className={[item.mark, item.key === highlighted ? 'highlighted' : ''].join(' ')}>
              {item.text} <small>{item.detail}</small>
              {item.mark && <span className="badge pending">pending {item.mark === 'added' ? 'add' : 'removal'}</span>}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

/** Sample rows as a table: columns [{key, header}], rows [{key: rendered value}]. */
export function SampleTable({ label, columns, rows, more }) {
  return (
    <table aria-label={label} className="sample">
      <caption>{label}{more ? ' (first rows)' : ''}</caption>
      <thead><tr>{columns.map((c) => <th key={c.key}>{c.header}</th>)}</tr></thead>
      <tbody>
        {rows.map((row, i) => <tr key={i}>{columns.map((c) => <td key={c.key}>{row[c.key]}</td>)}</tr>)}
      </tbody>
    </table>
  );
}
