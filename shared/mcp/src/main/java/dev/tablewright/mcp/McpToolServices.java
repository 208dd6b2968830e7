package dev.tablewright.mcp;

import dev.tablewright.agent.toolcall.ToolInvoker;
import dev.tablewright.preview.PreviewDecisions;
import dev.tablewright.preview.PreviewStore;
import dev.tablewright.userinput.InputRequestService;

/**
 * What a tool call works with: the tools offered, the invoker that runs the bundle's tools in their functions, the
 * input-request lifecycle (questions and their answers, saved values), and the previews for accept/reject.
 */
public record McpToolServices(McpToolCatalogue catalogue, ToolInvoker invoker, InputRequestService inputRequests,
                              PreviewStore previews, PreviewDecisions decisions) {
}
