// Pure helpers: what the builder shows, read from a config (Config wire format v1) and from the chat's messages.

/** The panels of a config as lists of {key, text, detail}; key identifies an item when two configs are compared. */
export function panelsOf(config) {
  const source = config?.data_source?.[0] ?? {};
  const visual = config?.visual_settings ?? {};
  const columns = (source.select?.columns ?? []).map((c) => {
    const key = c.alias ?? c.name;
    const settings = visual.columns?.[key] ?? {};
    return { key, text: settings.header ?? key, detail: `${settings.type ?? '?'} · ${c.table ? `${c.table}.` : ''}${c.name}` };
  });
  const joins = (source.select?.foreign_tables ?? []).map((j) => ({
    key: j.alias ?? j.table,
    text: `${j.join_type ?? 'LEFT'} JOIN ${j.schema}.${j.table}${j.alias && j.alias !== j.table ? ` AS ${j.alias}` : ''}`,
    detail: `on ${j.relationship_from} = ${j.relationship_to}`,
  }));
  const filters = (source.filters ?? []).map((f) => ({
    key: JSON.stringify([f.column, f.operator, f.value]),
    text: `${f.column} ${f.operator} ${JSON.stringify(f.value)}`,
    detail: f.label ?? '',
  }));
  const sort = (source.sort ?? []).map((s) => ({ key: `${s.column} ${s.direction}`, text: `${s.column} ${s.direction}`, detail: '' }));
  const pageSize = visual.page_size == null ? [] : [{ key: String(visual.page_size), text: String(visual.page_size), detail: '' }];
  return {
    base: source.source ? `${source.schema}.${source.source}` : null,
    Columns: columns, Joins: joins, Filters: filters, Sort: sort, 'Page size': pageSize,
  };
}

/**
 * Items of {@code now} marked against {@code before} (null: nothing marked): mark 'added' for what only now has,
 * and the items only before had, appended with mark 'removed'.
 */
export function marked(now, before) {
  if (!before) return now.map((item) => ({ ...item, mark: null }));
  const beforeKeys = new Set(before.map((i) => i.key));
  const nowKeys = new Set(now.map((i) => i.key));
  return [
    ...now.map((item) => ({ ...item, mark: beforeKeys.has(item.key) ? null : 'added' })),
    ...before.filter((item) => !nowKeys.has(item.key)).map((item) => ({ ...item, mark: 'removed' })),
  ];
}

/** Every part of the assistant messages, in order. */
const partsOf = (messages) => messages.filter((m) => m.role === 'assistant').flatMap((m) => m.parts);

/** The newest table-config preview of the conversation (its data), or null. */
export function latestPreview(messages) {
  return partsOf(messages).findLast((p) => p.type === 'data-table-config-preview')?.data ?? null;
}

/** The newest valid config a tool produced (operation tools and previews answer {valid, config}), or null. */
export function latestToolConfig(messages) {
  const part = partsOf(messages).findLast((p) => p.type.startsWith('tool-') && p.state === 'output-available'
    && p.output?.valid && p.output?.config);
  return part?.output.config ?? null;
}

/** The preview ids the messages show. */
export const previewIdsOf = (messages) =>
  partsOf(messages).filter((p) => p.type === 'data-table-config-preview').map((p) => p.data.previewId);

/**
 * The calls that keep a preview (tool-accept_preview parts, docs/stream-protocol.md#tool-approvals) by the preview
 * they name: {part, messageId, preview} with the preview's data part when the messages have it.
 */
export function keepCalls(messages) {
  const previews = {};
  const calls = {};
  for (const message of messages) {
    for (const part of message.parts) {
      if (part.type === 'data-table-config-preview') previews[part.data.previewId] = part.data;
      if (part.type === 'tool-accept_preview' && part.input?.previewId) {
        calls[part.input.previewId] = { part, messageId: message.id };
      }
    }
  }
  for (const [previewId, call] of Object.entries(calls)) call.preview = previews[previewId];
  return calls;
}
