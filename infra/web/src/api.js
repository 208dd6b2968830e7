// The page's only link to the backend: the API and chat URLs and the token, from ./config.json beside index.html.
//   {"apiUrl": "https://….execute-api….amazonaws.com", "chatUrl": "https://….lambda-url….on.aws/",
//    "token": "…" | "tokenUrl": "/dev-issuer/token" | "tokenStorageKey": "id_token",
//    "model": {"kind": "offline-demo" | "live" | "scripted", "label": "…"}}   (optional: which model answers)
// The local stack serves one with its own URLs and its development token route (docs/frontend.md).
let settings;
let token;

export async function loadSettings() {
  settings = await (await fetch('./config.json')).json();
  token = settings.token ?? (settings.tokenStorageKey ? localStorage.getItem(settings.tokenStorageKey) : null);
  if (!token && settings.tokenUrl) {
    token = (await (await fetch(settings.tokenUrl)).json()).token;
  }
  if (!token) {
    throw new Error('config.json names no token source (token, tokenUrl or tokenStorageKey)');
  }
}

export const chatUrl = () => settings.chatUrl;
/** Which model answers, when config.json says: {kind, label}, else null. */
export const modelInfo = () => settings.model ?? null;
const conversationUrl = (id) => `${settings.chatUrl.replace(/\/$/, '')}/${encodeURIComponent(id)}`;
export const turnStreamUrl = (id) => `${conversationUrl(id)}/stream`;

/** Stops the conversation's running turn wherever it runs (204 whether or not one was running). */
export async function stopTurn(id) {
  const response = await fetch(`${conversationUrl(id)}/stop`, { method: 'POST', headers: authHeaders() });
  if (!response.ok) throw new ApiError(response.status, null);
}
export const authHeaders = () => ({ Authorization: `Bearer ${token}` });

/** An HTTP API call; a non-2xx answer throws an ApiError carrying the body's {error: {field, message}}. */
export async function api(method, path, body) {
  const headers = body === undefined ? authHeaders() : { ...authHeaders(), 'Content-Type': 'application/json' };
  const response = await fetch(settings.apiUrl + path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const data = response.status === 204 ? null : await response.json().catch(() => null);
  if (!response.ok) {
    throw new ApiError(response.status, data);
  }
  return data;
}

export class ApiError extends Error {
  constructor(status, body) {
    super(body?.error?.message ?? body?.message ?? `HTTP ${status}`);
    this.status = status;
    this.body = body;
  }
}
