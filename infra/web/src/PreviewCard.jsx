import { useState } from 'react';
import { SampleTable } from './TableBuilder.jsx';

/**
 * A data-table-config-preview part: the proposed config's sample rows, its SQL and plan on demand, the diff of an
 * update, and Accept / Reject (through {@code onDecide}: the chat's approval of the call that keeps it, {@code keeping},
 * while it is open; else POST /previews/{id}/accept | reject).
 */
export function PreviewCard({ preview, decision, keeping, onDecide }) {
  const [error, setError] = useState(null);
  const [busy, setBusy] = useState(false);
  const decide = async (action) => {
    setBusy(true);
    setError(null);
    try {
      await onDecide(preview.previewId, action);
    } catch (e) {
      setError(e.message);
    } finally {
      setBusy(false);
    }
  };
  // the keep call's outcome, as the chat streamed it, wins over what the page knew
  const kept = keeping?.state === 'output-available' ? { status: 'accepted', version: keeping.output?.version }
    : keeping?.state === 'output-denied' ? { status: 'rejected' } : null;
  const status = (kept ?? decision)?.status ?? 'pending';
  const answering = keeping?.state === 'approval-responded';
  const shown = kept ?? decision;
  return (
    <article aria-label={`Preview ${preview.description}`} className="card preview">
      <h3>Preview: {preview.description}</h3>
      <p className="hint">{preview.isUpdate ? `update of version ${preview.baseVersion}` : 'new table config'}
        {preview.database ? ` · database ${preview.database}` : ''}</p>
      <SampleTable label="Sample rows" columns={preview.columns ?? []} rows={preview.rows ?? []} more={preview.more} />
      {preview.isUpdate && preview.diff && <Diff diff={preview.diff} />}
      <details><summary>SQL</summary><pre>{preview.sql}</pre></details>
      <details><summary>Plan</summary><pre>{preview.plan?.summary ?? JSON.stringify(preview.plan, null, 2)}</pre></details>
      {(preview.warnings ?? []).map((w, i) => <p key={i} className="warning">{typeof w === 'string' ? w : w.message}</p>)}
      {status === 'pending' ? (
        <div className="actions">
          <button onClick={() => decide('accept')} disabled={busy || answering}>Accept</button>
          <button onClick={() => decide('reject')} disabled={busy || answering}>Reject</button>
        </div>
      ) : (
        <p className={`decision ${status}`}>{status === 'accepted' && shown.version ? `Accepted: version ${shown.version}` : status[0].toUpperCase() + status.slice(1)}</p>
      )}
      {keeping?.state === 'output-error' && <p role="alert">{keeping.errorText}</p>}
      {error && <p role="alert">{error}</p>}
    </article>
  );
}

/** The diff of an update: per kind, what is added, removed and changed. */
function Diff({ diff }) {
  const kinds = Object.entries(diff).filter(([, d]) => d && !Array.isArray(d));
  return (
    <dl className="diff" aria-label="Diff">
      {kinds.map(([kind, d]) => (
        <div key={kind}>
          <dt>{kind}</dt>
          <dd>
            {(d.added ?? []).map((x) => <span key={'+' + text(x)} className="added">+ {text(x)} </span>)}
            {(d.removed ?? []).map((x) => <span key={'-' + text(x)} className="removed">− {text(x)} </span>)}
            {(d.changed ?? []).map((x) => <span key={'~' + text(x)} className="changed">~ {text(x)} </span>)}
            {!d.added?.length && !d.removed?.length && !d.changed?.length && 'no change'}
          </dd>
        </div>
      ))}
      {Array.isArray(diff.settings) && diff.settings.length > 0 && (
        <div><dt>settings</dt><dd>{diff.settings.map(text).join('; ')}</dd></div>
      )}
    </dl>
  );
}

const text = (x) => (typeof x === 'string' ? x : JSON.stringify(x));
