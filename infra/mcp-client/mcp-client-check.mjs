// The official MCP TypeScript SDK client against Tablewright's /mcp (McpClientTest runs it with the local stack).
// Usage: node mcp-client-check.mjs <scenario>, with MCP_URL, MCP_TOKEN, MCP_OTHER_TOKEN in the environment.
// Prints one JSON object (what the client saw) for the Java test to check; a client-side failure (e.g. structured
// output that does not match its outputSchema) exits non-zero with the error.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { runScenario, text } from './run-scenario.mjs';

const url = new URL(process.env.MCP_URL);
const token = process.env.MCP_TOKEN;
const otherToken = process.env.MCP_OTHER_TOKEN;

/** A client signed in with `bearer`; `answer(request)` answers each elicitation (null: no elicitation capability). */
async function connect(bearer, answer, sessionId) {
  const questions = [];
  const client = new Client({ name: 'tablewright-check', version: '1.0.0' },
    { capabilities: answer ? { elicitation: {} } : {} });
  if (answer) {
    client.setRequestHandler(ElicitRequestSchema, async (request) => {
      questions.push(request.params);
      return answer(request.params);
    });
  }
  const transport = new StreamableHTTPClientTransport(url, {
    sessionId,
    requestInit: { headers: { Authorization: `Bearer ${bearer}` } },
  });
  await client.connect(transport);
  return { client, transport, questions };
}

const summary = (result) => ({ isError: result.isError === true, text: text(result), structuredContent: result.structuredContent ?? null });

const ordersConfig = {
  name: 'Orders ' + Date.now(),
  data_source: [{ schema: 'sales', source: 'orders', select: { columns: [{ name: 'id' }] } }],
  visual_settings: { columns: { id: { header: 'ID' } } },
};

const scenarios = {
  // tools/list, a valid and an invalid apply_column_change (the SDK checks structuredContent against outputSchema)
  async tools() {
    const { client, transport, questions } = await connect(token, () => ({ action: 'accept', content: { database: 'production' } }));
    const listed = await client.listTools();
    const resources = await client.listResources();
    const valid = await client.callTool({ name: 'apply_column_change',
      arguments: { config: ordersConfig, operation: 'add', columns: [{ name: 'order_number' }] } });
    const invalid = await client.callTool({ name: 'apply_column_change',
      arguments: { config: ordersConfig, operation: 'add', columns: [{ name: 'no_such_column' }] } });
    const badArguments = await client.callTool({ name: 'apply_column_change', arguments: { config: ordersConfig, operation: 'add' } });
    const unknown = await client.callTool({ name: 'no_such_tool', arguments: {} }).then(() => null, (e) => String(e.message));
    const ping = await client.ping();
    await transport.terminateSession();
    return {
      protocolVersion: transport.protocolVersion ?? null,
      serverVersion: client.getServerVersion(),
      tools: listed.tools.map((t) => ({ name: t.name, title: t.title ?? null, description: t.description ?? '',
        annotations: t.annotations ?? null, hasOutputSchema: !!t.outputSchema, inputSchemaType: t.inputSchema?.type,
        meta: t._meta ?? null })),
      resources: resources.resources,
      questions: questions.length,
      valid: summary(valid),
      invalid: summary(invalid),
      badArguments: summary(badArguments),
      unknownTool: unknown,
      ping,
    };
  },

  // a session with two data sources: asked once, staging's tables, the next call not asked; a new session asks
  // again, declining is an error result and nothing is remembered
  async elicitation() {
    const first = await connect(token, () => ({ action: 'accept', content: { database: 'staging' } }));
    const searched = await first.client.callTool({ name: 'search_database_schema', arguments: { query: 'returns' } });
    const again = await first.client.callTool({ name: 'search_database_schema', arguments: { query: 'orders' } });
    const second = await connect(token, () => ({ action: 'decline' }));
    const declined = await second.client.callTool({ name: 'search_database_schema', arguments: { query: 'returns' } });
    const declinedAgain = await second.client.callTool({ name: 'search_database_schema', arguments: { query: 'returns' } });
    const silent = await connect(token, null);
    const withoutCapability = await silent.client.callTool({ name: 'search_database_schema', arguments: { query: 'returns' } });
    return {
      firstSession: { questions: first.questions, searched: summary(searched), again: summary(again) },
      secondSession: { questions: second.questions.length, declined: summary(declined), declinedAgain: summary(declinedAgain) },
      withoutCapability: summary(withoutCapability),
    };
  },

  // preview, then accept_preview: declined saves nothing, accepted saves (the Java test reads GET /configs)
  async preview() {
    let decision = 'decline';
    const { client, questions } = await connect(token, (params) => (decision === 'accept'
      ? { action: 'accept', content: params.requestedSchema?.properties?.confirm ? { confirm: true } : { database: 'production' } }
      : (params.requestedSchema?.properties?.database ? { action: 'accept', content: { database: 'production' } } : { action: 'decline' })));
    await client.listTools();
    const preview = await client.callTool({ name: 'preview_table_config', arguments: { config: ordersConfig } });
    const previewId = preview.structuredContent?.previewId;
    const declined = await client.callTool({ name: 'accept_preview', arguments: { previewId } });
    decision = 'accept';
    const accepted = await client.callTool({ name: 'accept_preview', arguments: { previewId } });
    const acceptedTwice = await client.callTool({ name: 'accept_preview', arguments: { previewId } });
    const other = await connect(otherToken, () => ({ action: 'accept', content: { confirm: true } }));
    const otherUser = await other.client.callTool({ name: 'accept_preview', arguments: { previewId } });
    const configId = accepted.structuredContent?.configId;
    const ownRead = await client.callTool({ name: 'get_table_config', arguments: { config_id: configId } });
    const otherRead = await other.client.callTool({ name: 'get_table_config', arguments: { config_id: configId } });
    return { name: ordersConfig.name, preview: summary(preview), previewId, questions,
      declined: summary(declined), accepted: summary(accepted), acceptedTwice: summary(acceptedTwice), otherUser: summary(otherUser),
      ownRead: summary(ownRead), otherRead: summary(otherRead) };
  },

  // a session resumed by id in a new client; another user's use of it is refused; no token: 401 and the metadata
  async sessions() {
    const { transport } = await connect(token, null);
    const sessionId = transport.sessionId;
    const resumed = await connect(token, null, sessionId);
    const resumedTools = (await resumed.client.listTools()).tools.length;
    const stolen = await connect(otherToken, null, sessionId)
      .then((c) => c.client.listTools()).then(() => 'accepted', (e) => String(e.message));
    const anonymous = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'x', version: '1' } } }) });
    const challenge = anonymous.headers.get('www-authenticate');
    const metadataUrl = /resource_metadata="([^"]+)"/.exec(challenge || '')?.[1];
    const metadata = metadataUrl ? await (await fetch(metadataUrl)).json() : null;
    const get = await fetch(url, { headers: { Authorization: `Bearer ${token}`, accept: 'text/event-stream', 'mcp-session-id': sessionId } });
    await resumed.transport.terminateSession();
    const afterDelete = await connect(token, null, sessionId).then((c) => c.client.listTools()).then(() => 'accepted', (e) => String(e.message));
    return { sessionId, resumedTools, stolen, anonymousStatus: anonymous.status, challenge, metadata, getStatus: get.status, afterDelete };
  },
};

await runScenario(scenarios);
