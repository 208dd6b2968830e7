// A typed client over the types openapi-typescript generates from docs/api/openapi.yaml (generated/api.d.ts):
// what a TypeScript frontend writes. Compiled with tsc --strict by OpenApiToolingTest; it is not run.
import type { components, paths } from "./generated/api";

type TableConfig = components["schemas"]["TableConfig"];
type ConversationList = paths["/conversations"]["get"]["responses"]["200"]["content"]["application/json"];
type Created = paths["/configs"]["post"]["responses"]["201"]["content"]["application/json"];
type Accepted = components["schemas"]["AcceptedPreview"];

export class TablewrightApi {
  constructor(private readonly baseUrl: string, private readonly token: () => Promise<string>) {}

  private async call<T>(method: string, path: string, body?: unknown): Promise<T> {
    const response = await fetch(this.baseUrl + path, {
      method,
      headers: { authorization: `Bearer ${await this.token()}`, "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (!response.ok) {
      throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`);
    }
    return (await response.json()) as T;
  }

  createConfig(config: TableConfig): Promise<Created> {
    return this.call<Created>("POST", "/configs", { config });
  }

  conversations(limit = 25, cursor?: string): Promise<ConversationList> {
    const query = new URLSearchParams({ limit: String(limit), ...(cursor ? { cursor } : {}) });
    return this.call<ConversationList>("GET", `/conversations?${query}`);
  }

  acceptPreview(previewId: string): Promise<Accepted> {
    return this.call<Accepted>("POST", `/previews/${encodeURIComponent(previewId)}/accept`);
  }
}

// A config built by hand, as a page would: every field typed by the spec.
export const openOrders: TableConfig = {
  name: "Open orders",
  data_source: [
    {
      schema: "sales",
      source: "orders",
      select: { columns: [{ name: "id" }, { name: "status" }] },
      filters: [{ column: "status", operator: "eq", value: "open" }],
    },
  ],
  visual_settings: { page_size: 25, columns: { id: { type: "number" }, status: { type: "string" } } },
};

export async function example(api: TablewrightApi): Promise<string[]> {
  const created = await api.createConfig(openOrders);
  const page = await api.conversations(10);
  const titles = page.items.map((c) => c.title ?? "(untitled)");
  const accepted = await api.acceptPreview("prv_example");
  return [String(created.version), ...titles, String(accepted.config.version)];
}
