// The message shapes a useChat client sends back, made and checked by the AI SDK itself: for each installed `ai`
// version (5.x, 6.x, 7.x, npm aliases in package.json), every candidate conversation below is run through that
// version's own validateUIMessages; the ones it accepts must be accepted by the chat endpoint too. Among them: a
// tool part left in state output-error with rawInput and no input, as `ai` keeps it after unparsable arguments.
//
// Prints {"versions": [{"package", "version", "accepted": [{"shape", "messages"}], "rejected": [{"shape", "error"}]}]}.
// usage: node message-shapes.mjs
import { readFileSync } from 'node:fs';

const PACKAGES = ['ai5', 'ai6-0', 'ai', 'ai6-326', 'ai7'];

const user = (id, text) => ({ id, role: 'user', parts: [{ type: 'text', text }] });
const assistant = (id, ...parts) => ({ id, role: 'assistant', parts: [{ type: 'step-start' }, ...parts] });
const input = { operation: 'add', columns: [{ name: 'created_at', pg_type: 'timestamp without time zone' }] };

const SHAPES = {
  'tool output-error with rawInput and no input': [
    { type: 'tool-apply_column_change', toolCallId: 'call_bad', state: 'output-error',
      rawInput: '{"operation":"add","columns":[{"name":', errorText: 'arguments: not a valid JSON object' }],
  'tool output-error with input': [
    { type: 'tool-apply_column_change', toolCallId: 'call_e', state: 'output-error', input, errorText: 'the tool failed' }],
  'tool input-streaming without input': [
    { type: 'tool-apply_column_change', toolCallId: 'call_s', state: 'input-streaming' }],
  'tool input-available': [
    { type: 'tool-apply_column_change', toolCallId: 'call_i', state: 'input-available', input }],
  'tool output-available with provider fields': [
    { type: 'tool-apply_column_change', toolCallId: 'call_o', state: 'output-available', input,
      output: { valid: true }, providerExecuted: false, callProviderMetadata: { openai: { itemId: 'x' } } }],
  'tool output-available, preliminary': [
    { type: 'tool-apply_column_change', toolCallId: 'call_p', state: 'output-available', input, output: { valid: true }, preliminary: true }],
  'dynamic-tool output-available': [
    { type: 'dynamic-tool', toolName: 'open_sql_console', toolCallId: 'call_d', state: 'output-available', input: {}, output: 'opened' }],
  'dynamic-tool output-error with rawInput': [
    { type: 'dynamic-tool', toolName: 'open_sql_console', toolCallId: 'call_de', state: 'output-error', rawInput: '{', errorText: 'bad input' }],
  'tool approval-requested': [
    { type: 'tool-apply_column_change', toolCallId: 'call_ar', state: 'approval-requested', input, approval: { id: 'appr_1' } }],
  'tool approval-responded': [
    { type: 'tool-apply_column_change', toolCallId: 'call_aa', state: 'approval-responded', input,
      approval: { id: 'appr_2', approved: true, reason: 'fine' } }],
  'tool output-denied': [
    { type: 'tool-apply_column_change', toolCallId: 'call_od', state: 'output-denied', input,
      approval: { id: 'appr_3', approved: false, reason: 'no' } }],
  'reasoning, sources, file, data parts': [
    { type: 'reasoning', text: 'thinking', state: 'done', providerMetadata: { openai: { id: 'r' } } },
    { type: 'source-url', sourceId: 's1', url: 'https://example.com/doc', title: 'Doc' },
    { type: 'source-document', sourceId: 's2', mediaType: 'application/pdf', title: 'Spec', filename: 'spec.pdf' },
    { type: 'file', mediaType: 'image/png', url: 'data:image/png;base64,iVBORw0KGgo=', filename: 'chart.png' },
    { type: 'data-table-config-preview', id: 'prv_1', data: { previewId: 'prv_1' } },
    { type: 'text', text: 'Here it is.', state: 'done', providerMetadata: { openai: {} } }],
};

function conversation(parts) {
  return [user('u1', 'add created_at'), { ...assistant('a1', ...parts), metadata: { conversationId: 'c1' } },
    user('u2', 'and now?')];
}

const versions = [];
for (const name of PACKAGES) {
  const pkg = JSON.parse(readFileSync(new URL(`./node_modules/${name}/package.json`, import.meta.url), 'utf8'));
  const { validateUIMessages } = await import(name);
  const accepted = [];
  const rejected = [];
  for (const [shape, parts] of Object.entries(SHAPES)) {
    const messages = conversation(parts);
    try {
      const valid = await validateUIMessages({ messages });
      accepted.push({ shape, messages: valid });
    } catch (e) {
      rejected.push({ shape, error: String(e?.message ?? e).slice(0, 300) });
    }
  }
  versions.push({ package: name, version: pkg.version, accepted, rejected });
}
process.stdout.write(JSON.stringify({ versions }));
