// The official MCP TypeScript SDK v2 client (@modelcontextprotocol/client) on the 2026-07-28 revision against
// Tablewright's /mcp: pinned to the revision, and in auto mode (server/discover decides the era). McpSdkV2ClientTest
// runs it. Usage: node mcp-client-2026.mjs <scenario>, with MCP_URL, MCP_TOKEN (and for urlMode PAGE_SUBMIT_URL).
// Prints one JSON object (what the client saw) for the Java test to check; a client-side failure (a result the SDK
// refuses, e.g. a tools/list without ttlMs) exits non-zero with the error.
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { runScenario, text } from './run-scenario.mjs';

const url = new URL(process.env.MCP_URL);
const token = process.env.MCP_TOKEN;
const REVISION = '2026-07-28';

/** A client on `mode`; `answer(params)` answers each elicitation (null: no elicitation capability). */
async function connect(mode, answer, capabilities) {
  const questions = [];
  const client = new Client({ name: 'tablewright-check-v2', version: '1.0.0' }, {
    capabilities: capabilities ?? (answer ? { elicitation: { form: {} } } : {}),
    versionNegotiation: { mode },
  });
  if (answer) {
    client.setRequestHandler('elicitation/create', async (request) => {
      questions.push(request.params);
      return answer(request.params);
    });
  }
  const transport = new StreamableHTTPClientTransport(url, { requestInit: { headers: { Authorization: `Bearer ${token}` } } });
  await client.connect(transport);
  return { client, transport, questions };
}

const summary = (result) => ({ isError: result.isError === true, text: text(result), structuredContent: result.structuredContent ?? null,
  meta: result._meta ?? null });

const ordersConfig = (name) => ({
  name,
  data_source: [{ schema: 'sales', source: 'orders', select: { columns: [{ name: 'id' }] } }],
  visual_settings: { columns: { id: { header: 'ID' } } },
});

const scenarios = {
  // pinned to 2026-07-28: discover, list, a call naming its data source, a question answered through the handler,
  // a declined one, a client that can answer nothing, and accept_preview confirmed through the handler
  async pinned() {
    let database = 'staging';
    let confirm = 'accept';
    const { client, questions } = await connect({ pin: REVISION }, (params) => {
      if (params.requestedSchema?.properties?.confirm) {
        return confirm === 'accept' ? { action: 'accept', content: { confirm: true } } : { action: 'decline' };
      }
      return database ? { action: 'accept', content: { database } } : { action: 'decline' };
    });
    const discover = client.getDiscoverResult() ?? null;
    const listed = await client.listTools();
    const named = await client.callTool({ name: 'search_database_schema', arguments: { query: 'returns', database: 'production' } });
    const asked = await client.callTool({ name: 'search_database_schema', arguments: { query: 'returns' } });
    const askedCount = questions.length;
    database = null;
    const declined = await client.callTool({ name: 'search_database_schema', arguments: { query: 'returns' } });
    const silent = await connect({ pin: REVISION }, null);
    const withoutCapability = await silent.client.callTool({ name: 'search_database_schema', arguments: { query: 'returns' } });
    const name = 'Orders v2 ' + Date.now();
    const preview = await client.callTool({ name: 'preview_table_config', arguments: { config: ordersConfig(name), database: 'production' } });
    const previewId = preview.structuredContent?.previewId;
    confirm = 'decline';
    const notConfirmed = await client.callTool({ name: 'accept_preview', arguments: { previewId } });
    confirm = 'accept';
    const accepted = await client.callTool({ name: 'accept_preview', arguments: { previewId } });
    return {
      era: client.getProtocolEra?.() ?? null,
      discover,
      serverVersion: client.getServerVersion() ?? null,
      tools: listed.tools.map((t) => t.name),
      named: summary(named),
      asked: summary(asked),
      askedCount,
      questions,
      declined: summary(declined),
      withoutCapability: summary(withoutCapability),
      name,
      previewId,
      notConfirmed: summary(notConfirmed),
      accepted: summary(accepted),
    };
  },

  // auto mode: the server/discover probe finds the modern era; a question answered through the handler
  async auto() {
    const { client, questions } = await connect('auto', () => ({ action: 'accept', content: { database: 'staging' } }));
    const listed = await client.listTools();
    const asked = await client.callTool({ name: 'search_database_schema', arguments: { query: 'returns' } });
    return { era: client.getProtocolEra?.() ?? null, discover: client.getDiscoverResult() ?? null,
      tools: listed.tools.length, asked: summary(asked), questions };
  },

  // URL mode: a secret asked on a page; the handler "goes to the page" (PAGE_SUBMIT_URL stands in for the page's
  // submit) and accepts; the SDK's retry then finds the value the page submitted
  async urlMode() {
    const pages = [];
    const { client, questions } = await connect({ pin: REVISION }, async (params) => {
      if (params.mode !== 'url') return { action: 'decline' };
      const page = new URL(params.url);
      pages.push(params.url);
      const submitted = await fetch(process.env.PAGE_SUBMIT_URL, { method: 'POST', headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ conversation: page.searchParams.get('conversation'), inputRequest: page.searchParams.get('inputRequest'),
          values: { password: 'correct horse' } }) });
      if (submitted.status !== 200) throw new Error('the page stand-in answered ' + submitted.status);
      return { action: 'accept' };
    }, { elicitation: { form: {}, url: {} } });
    const answered = await client.callTool({ name: 'search_database_schema', arguments: { query: 'orders', database: 'production' } });
    const declining = await connect({ pin: REVISION }, () => ({ action: 'decline' }), { elicitation: { url: {} } });
    const declined = await declining.client.callTool({ name: 'search_database_schema', arguments: { query: 'orders', database: 'production' } });
    return { questions, pages, answered: summary(answered), declined: summary(declined) };
  },
};

await runScenario(scenarios);
