// The browser side of the test host: what an MCP Apps host (Claude, ChatGPT, VS Code, ...) does with a tool that
// names a UI resource, built from the official pieces. An MCP client (@modelcontextprotocol/client) on the local
// stack's /mcp declares the io.modelcontextprotocol/ui extension; a tool's _meta.ui.resourceUri is read with
// resources/read and rendered in an iframe (srcdoc, sandbox="allow-scripts", the CSP its _meta.ui.csp allows);
// the official AppBridge (@modelcontextprotocol/ext-apps) talks to it over PostMessageTransport: the handshake,
// the tool's input and result, the view's own tools/call (refused unless the tool is visible to apps), its
// ui/update-model-context and ui/message. mcp-app-check.mjs bundles this file and drives it through window.host.
import {
  AppBridge,
  PostMessageTransport,
  RESOURCE_MIME_TYPE,
  getToolUiResourceUri,
} from '@modelcontextprotocol/ext-apps/app-bridge';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';

const EXTENSION_ID = 'io.modelcontextprotocol/ui';
const HOST_INFO = { name: 'tablewright-test-host', version: '1.0.0' };

/** What the host saw, for the check to read: events in order, and what the views told the model. */
const log = { events: [], modelContext: [], messages: [], viewCalls: [], refusedCalls: [], hostile: [] };
window.hostLog = log;

// A hostile sample cell that ran would post this to its parent (the host) or set it on the host's window.
window.addEventListener('message', (e) => {
  if (e.data === 'pwned' || (e.data && e.data.pwned)) log.hostile.push(String(e.data.pwned ?? e.data));
});

let client;
let tools = [];
let views = 0;

/**
 * Connects the MCP client to `url` with `token`; `ui`: whether it declares the MCP Apps extension (with its MIME
 * type), as a host that renders views does; `pin`: a modern revision to speak (2026-07-28: no session, the
 * capabilities in every request's _meta), else the client's default (initialize and a 2025 session).
 */
async function connect(url, token, ui, pin) {
  client = new Client(HOST_INFO, {
    capabilities: ui ? { extensions: { [EXTENSION_ID]: { mimeTypes: [RESOURCE_MIME_TYPE] } } } : {},
    ...(pin ? { versionNegotiation: { mode: { pin } } } : {}),
  });
  await client.connect(new StreamableHTTPClientTransport(new URL(url), {
    requestInit: { headers: { Authorization: `Bearer ${token}` } },
  }));
  return { serverCapabilities: client.getServerCapabilities(), protocolVersion: client.getNegotiatedProtocolVersion() ?? null };
}

async function listTools() {
  tools = (await client.listTools()).tools;
  return tools;
}

/** The CSP a host derives from a resource's _meta.ui.csp: nothing outside unless a domain is declared. */
function contentSecurityPolicy(csp = {}) {
  const list = (domains) => (domains ?? []).join(' ');
  const connect = list(csp.connectDomains);
  const resources = list(csp.resourceDomains);
  return [
    "default-src 'none'",
    `script-src 'unsafe-inline' ${resources}`.trim(),
    `style-src 'unsafe-inline' ${resources}`.trim(),
    `img-src data: ${resources}`.trim(),
    `font-src data: ${resources}`.trim(),
    `connect-src ${connect || "'none'"}`,
    `frame-src ${list(csp.frameDomains) || "'none'"}`,
    `base-uri ${list(csp.baseUriDomains) || "'none'"}`,
    "form-action 'none'",
  ].join('; ');
}

/**
 * Renders `toolName`'s view in the transcript as a host does when the model calls it: resources/read of its
 * resourceUri, a sandboxed srcdoc iframe, the AppBridge handshake, then (unless `withholdResult`) the tool input,
 * the tools/call itself and its result. Answers what was read and called, for the check.
 */
async function show(toolName, args, { prompt, theme = 'light', hostCapabilities, withholdResult = false } = {}) {
  const tool = tools.find((t) => t.name === toolName);
  if (!tool) throw new Error(`tools/list has no ${toolName}`);
  const uri = getToolUiResourceUri(tool);
  if (!uri || !uri.startsWith('ui://')) throw new Error(`${toolName} names no ui:// resource: ${JSON.stringify(tool._meta)}`);
  const read = await client.readResource({ uri });
  const content = read.contents.find((c) => c.uri === uri);
  if (!content || content.mimeType !== RESOURCE_MIME_TYPE || typeof content.text !== 'string') {
    throw new Error(`resources/read ${uri} answered no ${RESOURCE_MIME_TYPE} text: ${JSON.stringify(read).slice(0, 300)}`);
  }
  const csp = content._meta?.ui?.csp;

  const turn = document.createElement('section');
  turn.className = 'turn';
  turn.dataset.tool = toolName;
  if (prompt) {
    const said = document.createElement('p');
    said.className = 'user';
    said.textContent = prompt;
    turn.append(said);
  }
  const call = document.createElement('p');
  call.className = 'call';
  call.textContent = `Tablewright \u203a ${tool.title ?? toolName}`;
  turn.append(call);
  const frame = document.createElement('iframe');
  frame.setAttribute('sandbox', 'allow-scripts');
  frame.title = tool.title ?? toolName;
  turn.append(frame);
  document.getElementById('transcript').append(turn);

  const index = views++;
  const bridge = new AppBridge(null, HOST_INFO, hostCapabilities ?? {
    serverTools: {},
    updateModelContext: { text: {}, structuredContent: {} },
    message: { text: {} },
  }, {
    hostContext: {
      theme,
      displayMode: 'inline',
      availableDisplayModes: ['inline'],
      platform: 'web',
      locale: 'en-US',
      containerDimensions: { maxHeight: 2000, width: frame.getBoundingClientRect().width },
    },
  });
  const seen = (what, detail) => log.events.push({ view: index, what, ...(detail ? { detail } : {}) });
  bridge.onsizechange = ({ height }) => {
    if (height) frame.style.height = `${height}px`;
  };
  // A host forwards a view's tools/call only for tools visible to apps (the default visibility includes "app").
  bridge.oncalltool = async (params) => {
    const target = tools.find((t) => t.name === params.name);
    const visibility = target?._meta?.ui?.visibility ?? ['model', 'app'];
    if (!target || !visibility.includes('app')) {
      log.refusedCalls.push(params.name);
      throw new Error(`${params.name} is not callable by apps`);
    }
    log.viewCalls.push({ name: params.name, arguments: params.arguments });
    const result = await client.callTool(params);
    seen('view-call', { name: params.name, isError: result.isError === true });
    return result;
  };
  bridge.onupdatemodelcontext = async (params) => {
    log.modelContext.push(params);
    return {};
  };
  bridge.onmessage = async (params) => {
    log.messages.push(params);
    return {};
  };
  const initialized = new Promise((resolve) => {
    bridge.oninitialized = () => {
      seen('initialized');
      resolve();
    };
  });
  await bridge.connect(new PostMessageTransport(frame.contentWindow, frame.contentWindow));
  frame.srcdoc = content.text.replace(/<head>/i,
    `<head><meta http-equiv="Content-Security-Policy" content="${contentSecurityPolicy(csp)}">`);
  await initialized;
  if (withholdResult) {
    return { uri, mimeType: content.mimeType, csp: csp ?? null, sandbox: frame.getAttribute('sandbox'), view: index };
  }
  await bridge.sendToolInput({ arguments: args });
  seen('tool-input');
  const result = await client.callTool({ name: toolName, arguments: args });
  await bridge.sendToolResult(result);
  seen('tool-result');
  return {
    uri,
    mimeType: content.mimeType,
    csp: csp ?? null,
    sandbox: frame.getAttribute('sandbox'),
    usesSrcdoc: frame.hasAttribute('srcdoc') && !frame.hasAttribute('src'),
    result: { isError: result.isError === true, text: (result.content ?? []).map((c) => c.text).join('\n'), structuredContent: result.structuredContent ?? null },
    view: index,
  };
}

/** A plain tools/call, as the model would make it through this host. */
async function callTool(name, args) {
  const result = await client.callTool({ name, arguments: args });
  return { isError: result.isError === true, text: (result.content ?? []).map((c) => c.text).join('\n'), structuredContent: result.structuredContent ?? null };
}

window.host = { connect, listTools, show, callTool, contentSecurityPolicy };
