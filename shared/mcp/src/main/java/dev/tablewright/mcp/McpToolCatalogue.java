package dev.tablewright.mcp;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tablewright.catalogue.PreviewDecisionDefinitions;
import dev.tablewright.json.Json;
import dev.tablewright.toolcontract.ToolDefinition;
import dev.tablewright.toolcontract.ToolDefinition.Access;
import dev.tablewright.toolcontract.ToolDefinition.Audience;
import dev.tablewright.toolcontract.ToolRegistry;
import io.modelcontextprotocol.spec.McpSchema;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The tools the MCP endpoint offers: every tool of the catalogue MCP is a door of (its {@link Audience#MCP_HOST} tools, with
 * the deployment's data sources), in the catalogue's order, each as its definition says: its title, annotations from
 * what it changes, and, where the answer has a fixed shape, an {@code outputSchema} its {@code structuredContent}
 * follows. It lists no tool of its own.
 *
 * <p>A client that declared MCP Apps ({@link McpApps}) is offered more, as the catalogue says too: a tool whose answer
 * a view shows names it ({@code _meta.ui.resourceUri}), and the {@link Audience#APP_VIEW} tools, the views' buttons, are added
 * app-only ({@code _meta.ui.visibility: ["app"]}): its host lets the view call them and never shows them to the model.
 */
public final class McpToolCatalogue {

    public static final String ACCEPT_PREVIEW = PreviewDecisionDefinitions.ACCEPT_PREVIEW_NAME;
    public static final String REJECT_PREVIEW = PreviewDecisionDefinitions.REJECT_PREVIEW_NAME;
    public static final String KEEP_PREVIEW = PreviewDecisionDefinitions.KEEP_PREVIEW_NAME;
    public static final String DISCARD_PREVIEW = PreviewDecisionDefinitions.DISCARD_PREVIEW_NAME;

    private final Map<String, ToolDefinition> definitions = new LinkedHashMap<>();
    private final List<McpSchema.Tool> tools = new ArrayList<>();
    /** What a client that declared MCP Apps is offered: the same tools naming their views, and the views' own. */
    private final Map<String, ToolDefinition> appDefinitions = new LinkedHashMap<>();
    private final List<McpSchema.Tool> appTools = new ArrayList<>();

    /** @param catalogue the catalogue's registry for the deployment's data sources */
    public McpToolCatalogue(ToolRegistry catalogue) {
        for (ToolDefinition d : catalogue.all()) {
            if (d.isOn(Audience.MCP_HOST)) {
                definitions.put(d.name(), d);
                tools.add(describe(d, null));
            }
            if (d.isOn(Audience.MCP_HOST) || d.isOn(Audience.APP_VIEW)) {
                appDefinitions.put(d.name(), d);
                appTools.add(describe(d, appMeta(d)));
            }
        }
    }

    /** The tools a client that did not declare MCP Apps is offered. */
    public List<McpSchema.Tool> tools() {
        return List.copyOf(tools);
    }

    /** The tools offered: with MCP Apps ({@code apps}), the views' metadata and their app-only tools as well. */
    public List<McpSchema.Tool> tools(boolean apps) {
        return apps ? List.copyOf(appTools) : tools();
    }

    public Optional<ToolDefinition> definition(String name) {
        return Optional.ofNullable(definitions.get(name));
    }

    /** A tool by name, among those offered with or without MCP Apps: another client does not know the app-only ones. */
    public Optional<ToolDefinition> definition(String name, boolean apps) {
        return Optional.ofNullable((apps ? appDefinitions : definitions).get(name));
    }

    /** Whether the tool's answer follows an {@code outputSchema} (so a result carries {@code structuredContent}). */
    public boolean hasOutputSchema(String name) {
        ToolDefinition d = appDefinitions.get(name);
        return d != null && d.output() != null;
    }

    /**
     * {@code _meta} for a client with MCP Apps: the view that shows the tool's answer, and app-only for a tool only a
     * view calls; null when there is neither. The view is written twice, as the extension's own server helper does:
     * {@code ui.resourceUri}, and the flat {@code ui/resourceUri} some hosts still read.
     */
    private static Map<String, Object> appMeta(ToolDefinition d) {
        Map<String, Object> ui = new LinkedHashMap<>();
        Map<String, Object> meta = new LinkedHashMap<>();
        if (d.view() != null) {
            ui.put("resourceUri", d.view());
            meta.put("ui/resourceUri", d.view());
        }
        if (d.isOn(Audience.APP_VIEW) && !d.isOn(Audience.MCP_HOST)) {
            ui.put("visibility", List.of("app"));
        }
        if (ui.isEmpty()) {
            return null;
        }
        meta.put("ui", ui);
        return meta;
    }

    private static McpSchema.Tool describe(ToolDefinition d, Map<String, Object> meta) {
        boolean readOnly = d.access() == Access.READ_ONLY;
        McpSchema.ToolAnnotations annotations = new McpSchema.ToolAnnotations(d.title(), readOnly,
                readOnly ? null : false, // nothing is overwritten: a save makes a new version, the old ones stay
                readOnly ? null : d.access() == Access.WRITES_IDEMPOTENTLY, false, null);
        return new McpSchema.Tool(d.name(), d.title(), d.description(), map(d.parameters()),
                d.output() == null ? null : map(d.output()), annotations, meta);
    }

    @SuppressWarnings("unchecked")
    static Map<String, Object> map(ObjectNode node) {
        return Json.MAPPER.convertValue(node, Map.class);
    }
}
