package dev.tablewright.mcp;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tablewright.json.Json;
import dev.tablewright.tool.ToolDefinition;
import dev.tablewright.tool.ToolRegistry;
import io.modelcontextprotocol.spec.McpSchema;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The tools the MCP endpoint offers: the table-config tools by their chat names (the bundle's definitions, with the
 * deployment's data sources), plus {@value #ACCEPT_PREVIEW} and {@value #REJECT_PREVIEW}, which only MCP has (the chat
 * page has buttons). Each with a title, annotations that tell the truth and, where the answer has a fixed shape, an
 * {@code outputSchema} its {@code structuredContent} follows.
 *
 * <p>A client that declared MCP Apps ({@link McpApps}) also gets {@code preview_table_config} naming its view
 * ({@code _meta.ui.resourceUri}) and the view's own buttons, {@value #KEEP_PREVIEW} and {@value #DISCARD_PREVIEW}:
 * app-only ({@code _meta.ui.visibility: ["app"]}), so its host offers them to the view and never to the model.
 */
public final class McpToolCatalogue {

    public static final String ACCEPT_PREVIEW = "accept_preview";
    public static final String REJECT_PREVIEW = "reject_preview";
    /** The view's Keep: saves a pending preview; the click is the user's answer, so nothing more is asked. */
    public static final String KEEP_PREVIEW = "keep_preview";
    /** The view's Discard. */
    public static final String DISCARD_PREVIEW = "discard_preview";
    /** The tool whose answer the preview view ({@link McpApps#PREVIEW_URI}) shows. */
    static final String PREVIEW_TOOL = "preview_table_config";

    /** The bundle's tools MCP offers, in this order; the rest (config writes, chat-internal tools) stay out. */
    static final List<String> BUNDLE_TOOLS = List.of("search_database_schema", "discover_table_reference",
            "apply_column_change", "apply_filter_change", "apply_join_change", "apply_sort_change",
            "validate_table_config", "preview_table_config", "get_table_config", "list_table_configs");

    /** Tools that change nothing anywhere: the operation tools are pure (they answer a changed copy of the config). */
    private static final java.util.Set<String> READ_ONLY = java.util.Set.of("search_database_schema", "discover_table_reference",
            "apply_column_change", "apply_filter_change", "apply_join_change", "apply_sort_change",
            "validate_table_config", "get_table_config", "list_table_configs");

    private static final Map<String, String> TITLES = Map.ofEntries(
            Map.entry("search_database_schema", "Search the database schema"),
            Map.entry("discover_table_reference", "Table config reference"),
            Map.entry("apply_column_change", "Change columns"),
            Map.entry("apply_filter_change", "Change filters"),
            Map.entry("apply_join_change", "Change joins"),
            Map.entry("apply_sort_change", "Change sorting"),
            Map.entry("validate_table_config", "Validate a table config"),
            Map.entry("preview_table_config", "Preview a table config"),
            Map.entry("get_table_config", "Read a saved table config"),
            Map.entry("list_table_configs", "List saved table configs"),
            Map.entry(ACCEPT_PREVIEW, "Save a preview (asks the user)"),
            Map.entry(REJECT_PREVIEW, "Discard a preview"),
            Map.entry(KEEP_PREVIEW, "Keep a preview (the view's button)"),
            Map.entry(DISCARD_PREVIEW, "Discard a preview (the view's button)"));

    private final Map<String, ToolDefinition> definitions = new LinkedHashMap<>();
    private final Map<String, McpSchema.Tool> tools = new LinkedHashMap<>();
    /** What a client that declared MCP Apps is offered: the same tools, the preview naming its view, and the view's own. */
    private final Map<String, ToolDefinition> appDefinitions = new LinkedHashMap<>();
    private final List<McpSchema.Tool> appTools;

    public McpToolCatalogue(ToolRegistry registry) {
        for (String name : BUNDLE_TOOLS) {
            registry.find(name).ifPresent(d -> definitions.put(name, d));
        }
        definitions.put(ACCEPT_PREVIEW, previewDecision(ACCEPT_PREVIEW,
                "Saves a pending preview (made by preview_table_config) as a table config: a new config, or the next version "
                        + "of the config it changes. The user is asked to confirm first (name, new or which version, the "
                        + "changes); nothing is saved unless they accept. Declined: the preview stays pending."));
        definitions.put(REJECT_PREVIEW, previewDecision(REJECT_PREVIEW,
                "Discards a pending preview (made by preview_table_config); the saved config is untouched."));
        definitions.forEach((name, d) -> tools.put(name, describe(d)));

        appDefinitions.putAll(definitions);
        appDefinitions.put(KEEP_PREVIEW, previewDecision(KEEP_PREVIEW,
                "Saves a pending preview when the user clicks Keep in the preview's view; only the view calls it."));
        appDefinitions.put(DISCARD_PREVIEW, previewDecision(DISCARD_PREVIEW,
                "Discards a pending preview when the user clicks Discard in the preview's view; only the view calls it."));
        List<McpSchema.Tool> withApps = new java.util.ArrayList<>();
        for (ToolDefinition d : appDefinitions.values()) {
            McpSchema.Tool tool = tools.containsKey(d.name()) ? tools.get(d.name()) : describe(d);
            withApps.add(withUi(tool, uiMeta(d.name())));
        }
        this.appTools = List.copyOf(withApps);
    }

    /** The tools a client that did not declare MCP Apps is offered. */
    public List<McpSchema.Tool> tools() {
        return List.copyOf(tools.values());
    }

    /** The tools offered: with MCP Apps ({@code apps}), the view's metadata and its app-only tools as well. */
    public List<McpSchema.Tool> tools(boolean apps) {
        return apps ? appTools : tools();
    }

    public Optional<ToolDefinition> definition(String name) {
        return Optional.ofNullable(definitions.get(name));
    }

    /** A tool by name, among those offered with or without MCP Apps: another client does not know the app-only ones. */
    public Optional<ToolDefinition> definition(String name, boolean apps) {
        return Optional.ofNullable((apps ? appDefinitions : definitions).get(name));
    }

    /** {@code _meta.ui} of a tool for a client with MCP Apps; null when the tool has none. */
    private static Map<String, Object> uiMeta(String name) {
        return switch (name) {
            // the flat key too, as the official server helper writes it, for hosts that read only that one
            case PREVIEW_TOOL -> Map.of("ui", Map.of("resourceUri", McpApps.PREVIEW_URI), "ui/resourceUri", McpApps.PREVIEW_URI);
            case KEEP_PREVIEW, DISCARD_PREVIEW -> Map.of("ui", Map.of("visibility", List.of("app")));
            default -> null;
        };
    }

    private static McpSchema.Tool withUi(McpSchema.Tool t, Map<String, Object> meta) {
        return meta == null ? t : new McpSchema.Tool(t.name(), t.title(), t.description(), t.inputSchema(), t.outputSchema(),
                t.annotations(), meta);
    }

    /** Whether the tool's answer follows an {@code outputSchema} (so a result carries {@code structuredContent}). */
    public boolean hasOutputSchema(String name) {
        return outputSchema(name) != null;
    }

    private static McpSchema.Tool describe(ToolDefinition d) {
        boolean readOnly = READ_ONLY.contains(d.name());
        McpSchema.ToolAnnotations annotations = new McpSchema.ToolAnnotations(TITLES.get(d.name()), readOnly,
                readOnly ? null : false, // nothing is overwritten: a save makes a new version, the old ones stay
                readOnly ? null : d.name().equals(REJECT_PREVIEW) || d.name().equals(DISCARD_PREVIEW), false, null);
        ObjectNode output = outputSchema(d.name());
        return new McpSchema.Tool(d.name(), TITLES.get(d.name()), d.description(), map(d.parameters()),
                output == null ? null : map(output), annotations, null);
    }

    private static ToolDefinition previewDecision(String name, String description) {
        ObjectNode parameters = Json.object().put("type", "object");
        parameters.putObject("properties").putObject("previewId").put("type", "string")
                .put("description", "The previewId preview_table_config answered (prv_...)");
        parameters.putArray("required").add("previewId");
        parameters.put("additionalProperties", false);
        return new ToolDefinition(name, description, parameters, null, null, ToolDefinition.RunsOn.CHAT);
    }

    /** The shapes the tools answer ({@code OperationResult} and the preview tool's answer); null: free-form. */
    static ObjectNode outputSchema(String tool) {
        return switch (tool) {
            case "apply_column_change", "apply_filter_change", "apply_join_change", "apply_sort_change",
                 "validate_table_config" -> operationResult();
            case "preview_table_config" -> previewResult();
            case ACCEPT_PREVIEW, KEEP_PREVIEW -> acceptResult();
            default -> null;
        };
    }

    private static ObjectNode operationResult() {
        ObjectNode schema = Json.object().put("type", "object");
        ObjectNode p = schema.putObject("properties");
        p.putObject("valid").put("type", "boolean").put("description", "false: errors say what to fix");
        p.putObject("config").put("description", "the changed config (null when not valid)").putArray("type").add("object").add("null");
        p.set("errors", problems("what makes the change invalid, each on its field (e.g. columns[0].name)"));
        p.set("warnings", problems("what is allowed but worth knowing"));
        p.putObject("applied").put("type", "array").put("description", "what was changed, in words").putObject("items").put("type", "string");
        schema.putArray("required").add("valid").add("config").add("errors").add("warnings").add("applied");
        return schema;
    }

    private static ObjectNode previewResult() {
        ObjectNode schema = Json.object().put("type", "object");
        ObjectNode p = schema.putObject("properties");
        p.putObject("valid").put("type", "boolean");
        p.putObject("previewId").put("type", "string").put("description", "pass it to accept_preview or reject_preview");
        p.putObject("configId").putArray("type").add("string").add("null");
        p.putObject("isUpdate").put("type", "boolean");
        p.putObject("baseVersion").put("type", "integer");
        p.putObject("description").put("type", "string");
        p.putObject("database").put("type", "string");
        p.putObject("config").put("type", "object");
        p.putObject("diff").put("type", "object");
        p.putObject("plan").put("type", "object");
        p.putObject("columns").put("type", "array");
        p.putObject("rows").put("type", "array");
        p.putObject("more").put("type", "boolean");
        p.set("warnings", problems("what is allowed but worth knowing"));
        p.set("errors", problems("why the config cannot be previewed"));
        p.putObject("expiresAt").put("type", "string");
        schema.putArray("required").add("valid");
        return schema;
    }

    private static ObjectNode acceptResult() {
        ObjectNode schema = Json.object().put("type", "object");
        ObjectNode p = schema.putObject("properties");
        p.putObject("accepted").put("type", "boolean");
        p.putObject("previewId").put("type", "string");
        p.putObject("configId").put("type", "string");
        p.putObject("version").put("type", "integer");
        p.putObject("created").put("type", "boolean");
        p.putObject("name").put("type", "string");
        schema.putArray("required").add("accepted").add("previewId");
        return schema;
    }

    private static ObjectNode problems(String description) {
        ObjectNode list = Json.object().put("type", "array").put("description", description);
        ObjectNode item = list.putObject("items").put("type", "object");
        item.putObject("properties").<ObjectNode>set("field", Json.object().put("type", "string"))
                .set("message", Json.object().put("type", "string"));
        ((ArrayNode) item.putArray("required")).add("field").add("message");
        return list;
    }

    @SuppressWarnings("unchecked")
    static Map<String, Object> map(ObjectNode node) {
        return Json.MAPPER.convertValue(node, Map.class);
    }
}
