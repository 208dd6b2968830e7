package dev.tablewright.mcp;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tablewright.json.Json;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.ProtocolVersions;

import java.util.List;

/**
 * {@code resources/list}, {@code resources/templates/list} (none) and {@code resources/read}: the server's only
 * resources are its MCP Apps views ({@link McpApps}), in either era. A client that declared the extension is offered them; any client may read one by its URI (it is
 * the same static page for everyone and holds nothing of a user). A URI the server does not have is the spec's
 * "resource not found": {@code -32002} on the 2025 revisions, {@code -32602} from 2026-07-28 on (SEP-2164), with the
 * URI in {@code data}.
 */
final class ResourceMethods {

    /** The 2025 revisions' code for a resource the server does not have. */
    static final int RESOURCE_NOT_FOUND = McpSchema.ErrorCodes.RESOURCE_NOT_FOUND;

    JsonNode list(McpRequest request) {
        List<McpSchema.Resource> offered = request.showsApps() ? McpApps.resources() : List.of();
        return Json.MAPPER.valueToTree(new McpSchema.ListResourcesResult(offered, null));
    }

    /** No templates: the views have fixed URIs (a client that declared {@code resources} may still ask). */
    JsonNode templates(McpRequest request) {
        return Json.MAPPER.valueToTree(new McpSchema.ListResourceTemplatesResult(List.of(), null));
    }

    JsonNode read(McpRequest request) throws McpError {
        JsonNode uri = request.params().path("uri");
        if (!uri.isTextual() || uri.textValue().isBlank()) {
            throw new McpError(JsonRpc.INVALID_PARAMS, "Invalid params: params.uri must be a string");
        }
        return McpApps.read(uri.textValue()).<JsonNode>map(Json.MAPPER::valueToTree).orElseThrow(() -> {
            ObjectNode data = Json.object().put("uri", uri.textValue());
            return new McpError(notFoundCode(request.caller().protocolVersion()),
                    "Resource not found: " + JsonRpc.clip(uri.textValue()), data);
        });
    }

    /** SEP-2164 moved "resource not found" to Invalid Params; a peer on a 2025 revision still gets -32002. */
    static int notFoundCode(String protocolVersion) {
        return protocolVersion.compareTo(ProtocolVersions.MCP_2025_11_25) <= 0 ? RESOURCE_NOT_FOUND : JsonRpc.INVALID_PARAMS;
    }
}
