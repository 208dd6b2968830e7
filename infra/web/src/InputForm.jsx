import { useState } from 'react';
import { api } from './api.js';

/**
 * A data-user-input-request part as a form. Submit posts the values to
 * POST /conversations/{id}/input-requests/{toolCallId}/response, then {@code onSubmitted} lets the chat continue;
 * the parent hides the form once the tool part has its output. A secret is a password input and is dropped from
 * the page's state once sent.
 */
export function InputForm({ conversationId, request, onSubmitted }) {
  const [values, setValues] = useState({});
  const [errors, setErrors] = useState({});
  const [state, setState] = useState('open'); // open | sending | submitted | cancelled
  const [remember, setRemember] = useState(true); // only offered when the request may save its answers
  const path = `/conversations/${encodeURIComponent(conversationId)}/input-requests/${encodeURIComponent(request.toolCallId)}`;
  const visible = request.fields.filter((f) => !f.showWhen || String(values[f.showWhen.field] ?? '') === f.showWhen.equals);
  const set = (name, value) => setValues((v) => ({ ...v, [name]: value }));

  async function submit(event) {
    event.preventDefault();
    setState('sending');
    try {
      await api('POST', `${path}/response`, { values: typed(visible, values), remember: request.saveForSession ? remember : undefined });
      setValues((v) => Object.fromEntries(Object.entries(v).filter(([name]) => !isSecret(request, name))));
      setState('submitted');
      onSubmitted();
    } catch (e) {
      const byField = Object.fromEntries((e.body?.error?.fields ?? []).map((f) => [f.field.replace(/^values\./, ''), f.message]));
      setErrors(Object.keys(byField).length ? byField : { '': e.message });
      setState('open');
    }
  }

  async function cancel() {
    await api('POST', `${path}/cancel`).catch(() => {});
    setState('cancelled');
  }

  if (state === 'submitted' || state === 'cancelled') {
    return <p className="hint">{state === 'submitted' ? 'Submitted; the assistant continues…' : 'Cancelled.'}</p>;
  }
  return (
    <form aria-label={`Input for ${request.toolName}`} className="card input-form" onSubmit={submit}>
      <p>{request.reason}</p>
      {visible.map((field) => (
        <div key={field.name} className="field">
          <Field field={field} value={values[field.name]} onChange={(value) => set(field.name, value)} />
          {field.description && <small>{field.description}</small>}
          {errors[field.name] && <small role="alert" className="error">{errors[field.name]}</small>}
        </div>
      ))}
      {request.saveForSession && (
        // Unticked, the tool gets this answer once and the server keeps nothing ("remember": false).
        <label className="check"><input type="checkbox" checked={remember} onChange={(e) => setRemember(e.target.checked)} /> Remember for this conversation</label>
      )}
      {errors[''] && <p role="alert" className="error">{errors['']}</p>}
      <div className="actions">
        <button type="submit" disabled={state === 'sending'}>Submit</button>
        <button type="button" onClick={cancel}>Cancel</button>
      </div>
    </form>
  );
}

/** One field, by its type: text, number, select, boolean, date, secret. */
function Field({ field, value, onChange }) {
  const label = field.label ?? field.name;
  const common = { required: !!field.required, placeholder: field.placeholder };
  switch (field.type) {
    case 'select':
      return (
        <label>{label}
          <select value={value ?? ''} onChange={(e) => onChange(e.target.value)} required={!!field.required}>
            <option value="" disabled>Choose…</option>
            {(field.options ?? []).map((o) => <option key={o} value={o}>{o}</option>)}
          </select>
        </label>
      );
    case 'boolean':
      return <label className="check"><input type="checkbox" checked={!!value} onChange={(e) => onChange(e.target.checked)} /> {label}</label>;
    case 'number':
      return <label>{label}<input type="number" min={field.min} max={field.max} value={value ?? ''} onChange={(e) => onChange(e.target.value)} {...common} /></label>;
    case 'date':
      return <label>{label}<input type="date" value={value ?? ''} onChange={(e) => onChange(e.target.value)} {...common} /></label>;
    case 'secret':
      return <label>{label}<input type="password" autoComplete="new-password" value={value ?? ''} onChange={(e) => onChange(e.target.value)} {...common} /></label>;
    default:
      return <label>{label}<input type="text" value={value ?? ''} onChange={(e) => onChange(e.target.value)} {...common} /></label>;
  }
}

/** The values of the shown fields, as the API takes them: numbers as numbers, booleans as booleans, blanks left out. */
function typed(fields, values) {
  const out = {};
  for (const f of fields) {
    const v = values[f.name];
    if (f.type === 'boolean') out[f.name] = !!v;
    else if (v !== undefined && v !== '') out[f.name] = f.type === 'number' ? Number(v) : String(v);
  }
  return out;
}

const isSecret = (request, name) => request.fields.some((f) => f.name === name && f.type === 'secret');
