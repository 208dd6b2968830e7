package dev.tablewright.mcp;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tablewright.catalog.PreviewDecisionDefinitions;
import dev.tablewright.json.Json;
import dev.tablewright.tool.ToolDefinition;
import dev.tablewright.tool.ToolDefinition.Access;
import dev.tablewright.tool.ToolDefinition.Door;
import dev.tablewright.tool.ToolRegistry;
import io.modelcontextprotocol.spec.McpSchema;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The tools the MCP endpoint offers: every tool of the catalogue MCP is a door of (its {@link Door#MCP} tools, with
 * the deployment's data sources), in the catalogue's order, each as its definition says: its title, annotations from
 * what it changes, and, where the answer has a fixed shape, an {@code outputSchema} its {@code structuredContent}
 * follows. It lists no tool of its own.
 */
public final class McpToolCatalogue {

    public static final String ACCEPT_PREVIEW = PreviewDecisionDefinitions.ACCEPT_PREVIEW_NAME;
    public static final String REJECT_PREVIEW = PreviewDecisionDefinitions.REJECT_PREVIEW_NAME;

    private final Map<String, ToolDefinition> definitions = new LinkedHashMap<>();
    private final Map<String, McpSchema.Tool> tools = new LinkedHashMap<>();

    /** @param catalogue the catalogue's registry for the deployment's data sources */
    public McpToolCatalogue(ToolRegistry catalogue) {
        for (ToolDefinition d : catalogue.offeredOn(Door.MCP).all()) {
            definitions.put(d.name(), d);
            tools.put(d.name(), describe(d));
        }
    }

    public List<McpSchema.Tool> tools() {
        return List.copyOf(tools.values());
    }

    public Optional<ToolDefinition> definition(String name) {
        return Optional.ofNullable(definitions.get(name));
    }

    /** Whether the tool's answer follows an {@code outputSchema} (so a result carries {@code structuredContent}). */
    public boolean hasOutputSchema(String name) {
        McpSchema.Tool tool = tools.get(name);
        return tool != null && tool.outputSchema() != null;
    }

    private static McpSchema.Tool describe(ToolDefinition d) {
        boolean readOnly = d.access() == Access.READ_ONLY;
        McpSchema.ToolAnnotations annotations = new McpSchema.ToolAnnotations(d.title(), readOnly,
                readOnly ? null : false, // nothing is overwritten: a save makes a new version, the old ones stay
                readOnly ? null : d.access() == Access.WRITES_IDEMPOTENTLY, false, null);
        return new McpSchema.Tool(d.name(), d.title(), d.description(), map(d.parameters()),
                d.output() == null ? null : map(d.output()), annotations, null);
    }

    @SuppressWarnings("unchecked")
    static Map<String, Object> map(ObjectNode node) {
        return Json.MAPPER.convertValue(node, Map.class);
    }
}
