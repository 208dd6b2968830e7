package dev.tablewright.toolcontract;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tablewright.json.Json;

import java.util.EnumSet;
import java.util.List;
import java.util.Set;

/**
 * A tool, described once: what it is called, what it takes and answers, which doors offer it and on what terms. The
 * prompt, the model's tool list, MCP's {@code tools/list}, docs/tools.md and template.yaml all follow from this
 * record; every tool's definition is written in the tool catalogue ({@code dev.tablewright.catalogue.ToolCatalogue}).
 *
 * @param name              the name the model calls, snake_case
 * @param title             a short human title (MCP shows it); required on the doors that show one ({@link Audience#needsTitle})
 * @param description       written for a language model
 * @param parameters        JSON Schema of the arguments
 * @param output            JSON Schema of the answer when it has a fixed shape (MCP's {@code outputSchema}); null: free-form
 * @param requiresUserInput optional: values only the user can give
 * @param coreIn            the page contexts that send this tool on every turn (others find it through the catalogue search)
 * @param runsOn            where the tool runs: its own Lambda function, or inside the function of the door that calls it
 * @param audiences         whose models offer it (none: a tool for other callers only, like a direct overwrite that
 *                          would bypass the user's accept)
 * @param access            what calling it changes; null when not declared (a door that tells its clients refuses that)
 * @param needsApproval     whether the user approves each call before it takes effect ({@code accept_preview} saves)
 * @param dataSource        whether and how it works on one of the configured data sources
 * @param view              the MCP App view that shows its answer, a {@code ui://} URI (MCP Apps' {@code _meta.ui.resourceUri},
 *                          for a client that renders views); null: none
 * @param lookup            whether it only looks something up ({@link #asLookup}): the chat may run it beside the other
 *                          lookups the model asks for in the same step
 */
public record ToolDefinition(String name, String title, String description, ObjectNode parameters, ObjectNode output,
                             UserInputRequirement requiresUserInput, Set<String> coreIn, RunsOn runsOn, Set<Audience> audiences,
                             Access access, boolean needsApproval, DataSourceUse dataSource, String view, boolean lookup) {

    /** The argument a tool that works on a whole table config takes it in ({@link #takesWorkingConfig}). */
    public static final String CONFIG_ARGUMENT = "config";

    /** A tool offered on the chat, titled later if at all ({@link #titled}), changing nothing declared. */
    public ToolDefinition(String name, String description, ObjectNode parameters,
                          UserInputRequirement requiresUserInput, Set<String> coreIn, RunsOn runsOn) {
        this(name, null, description, parameters, null, requiresUserInput, coreIn, runsOn, Set.of(Audience.AGENT), null, false,
                DataSourceUse.NONE, null, false);
    }

    public enum RunsOn {
        /** A Lambda function of its own, named {@link #functionLogicalId()} in template.yaml. */
        FUNCTION,
        /**
         * Inside the function of the door that offers it, no Lambda of its own: the agent's own tools (catalogue
         * search, editable fields) in the chat function, the preview decisions in the MCP function.
         */
        IN_PROCESS
    }

    /**
     * Whose model (or view) a tool is offered to: an audience, not a protocol (the agent's tools reach the user through
     * whichever door carries the chat: the AI SDK's stream, AG-UI).
     */
    public enum Audience {
        /** This project's agent: offered to its model, on every turn where core, else through the catalogue search. */
        AGENT,
        /** An MCP host's model, through MCP's {@code tools/list}, with a title and annotations. */
        MCP_HOST,
        /**
         * Only to an MCP App's view, never to a model (MCP Apps' {@code visibility: ["app"]}), and only for a client
         * that renders views: the buttons of a view (the preview's Keep and Discard).
         */
        APP_VIEW;

        /** Whether a tool offered here must carry a title and a declared access (MCP's annotations tell both). */
        public boolean needsTitle() {
            return this != AGENT;
        }
    }

    /** What calling a tool changes (MCP's {@code readOnlyHint}, {@code idempotentHint}); nothing is ever overwritten. */
    public enum Access {
        /** Changes nothing anywhere (the operation tools answer a changed copy of the config). */
        READ_ONLY,
        /** Adds something (a preview, a new version of a config); calling again adds again. */
        WRITES,
        /** Changes something once; calling again changes nothing more. */
        WRITES_IDEMPOTENTLY
    }

    /** How a tool works on the configured data sources. */
    public enum DataSourceUse {
        NONE,
        /** Grounds names in the chosen data source's catalogue: it takes the conversation's saved choice of database. */
        NAMES,
        /**
         * Reads the database itself: it declares the choice of database where several are configured (the door asks
         * before invoking it), and takes the saved choice.
         */
        QUERIES
    }

    public ToolDefinition {
        coreIn = coreIn == null ? Set.of() : Set.copyOf(coreIn);
        runsOn = runsOn == null ? RunsOn.FUNCTION : runsOn;
        audiences = audiences == null || audiences.isEmpty() ? Set.of() : Set.copyOf(EnumSet.copyOf(audiences));
        dataSource = dataSource == null ? DataSourceUse.NONE : dataSource;
    }

    /** The same tool with a human title. */
    public ToolDefinition titled(String title) {
        return new ToolDefinition(name, title, description, parameters, output, requiresUserInput, coreIn, runsOn, audiences,
                access, needsApproval, dataSource, view, lookup);
    }

    /** The same tool, whose answer follows this JSON Schema. */
    public ToolDefinition answering(ObjectNode output) {
        return new ToolDefinition(name, title, description, parameters, output, requiresUserInput, coreIn, runsOn, audiences,
                access, needsApproval, dataSource, view, lookup);
    }

    /** The same tool, offered to exactly these audiences (none: for other callers only). */
    public ToolDefinition on(Audience... audiences) {
        return new ToolDefinition(name, title, description, parameters, output, requiresUserInput, coreIn, runsOn,
                Set.of(audiences), access, needsApproval, dataSource, view, lookup);
    }

    /** The same tool, changing nothing anywhere. */
    public ToolDefinition readOnly() {
        return changing(Access.READ_ONLY);
    }

    /**
     * The same tool as a lookup: it changes nothing anywhere and answers no config for the turn to work on (the
     * schema search, the reference, the config reads, the tool search; the validation, whose answer is the config it
     * was given), so the chat runs the lookups of one step at once. The operation tools are read-only but no lookups:
     * the config they answer becomes the turn's working config, which the next call of the step may take.
     */
    public ToolDefinition asLookup() {
        return new ToolDefinition(name, title, description, parameters, output, requiresUserInput, coreIn, runsOn, audiences,
                Access.READ_ONLY, needsApproval, dataSource, view, true);
    }

    /** The same tool, with this access. */
    public ToolDefinition changing(Access access) {
        return new ToolDefinition(name, title, description, parameters, output, requiresUserInput, coreIn, runsOn, audiences,
                access, needsApproval, dataSource, view, lookup);
    }

    /** The same tool, taking effect only once the user approves the call. */
    public ToolDefinition needingApproval() {
        return new ToolDefinition(name, title, description, parameters, output, requiresUserInput, coreIn, runsOn, audiences,
                access, true, dataSource, view, lookup);
    }

    /** The same tool, its answer shown in this MCP App view (a {@code ui://} URI) where the client renders views. */
    public ToolDefinition shownIn(String view) {
        return new ToolDefinition(name, title, description, parameters, output, requiresUserInput, coreIn, runsOn, audiences,
                access, needsApproval, dataSource, view, lookup);
    }

        /** The same tool, grounding names in a data source ({@link DataSourceUse#NAMES}). */
    public ToolDefinition onADataSource() {
        return using(DataSourceUse.NAMES);
    }

    /** The same tool, reading a data source's database ({@link DataSourceUse#QUERIES}). */
    public ToolDefinition queryingADataSource() {
        return using(DataSourceUse.QUERIES);
    }

    private ToolDefinition using(DataSourceUse use) {
        return new ToolDefinition(name, title, description, parameters, output, requiresUserInput, coreIn, runsOn, audiences,
                access, needsApproval, use, view, lookup);
    }

    /** The same tool with these arguments and this question for the user (a deployment's choice of database). */
    public ToolDefinition asking(ObjectNode parameters, UserInputRequirement requiresUserInput) {
        return new ToolDefinition(name, title, description, parameters, output, requiresUserInput, coreIn, runsOn, audiences,
                access, needsApproval, dataSource, view, lookup);
    }

    /** Whether it is offered to {@code audience}. */
    public boolean isOn(Audience audience) {
        return audiences.contains(audience);
    }

    /**
     * Whether it works on one of the configured data sources (the database tools, and the operation tools that ground
     * names in one): it then takes the conversation's saved choice of database, even where only its function knows
     * there are several to choose from.
     */
    public boolean worksOnDataSource() {
        return dataSource != DataSourceUse.NONE;
    }

    /**
     * What a door needs of this definition that it lacks, one line each; empty when the definition is complete for
     * every door that offers it.
     */
    public List<String> missingForItsDoors() {
        List<String> missing = new java.util.ArrayList<>();
        for (Audience audience : audiences) {
            if (audience.needsTitle() && (title == null || title.isBlank())) {
                missing.add("tool '" + name + "' is offered on " + audience + " without a title (ToolDefinition.titled)");
            }
            if (audience.needsTitle() && access == null) {
                missing.add("tool '" + name + "' is offered on " + audience + " without saying what it changes "
                        + "(ToolDefinition.readOnly or changing)");
            }
        }
        if (view != null && !view.startsWith("ui://")) {
            missing.add("tool '" + name + "' names the view " + view + ", which is no ui:// URI");
        }
        return missing;
    }

    /** {@code apply_column_change} → {@code ApplyColumnChangeFunction}: the logical id in template.yaml. */
    public String functionLogicalId() {
        StringBuilder out = new StringBuilder();
        for (String part : name.split("_")) {
            if (!part.isEmpty()) {
                out.append(Character.toUpperCase(part.charAt(0))).append(part.substring(1));
            }
        }
        return out.append("Function").toString();
    }

    /**
     * Whether the tool works on a whole table config ({@code config} argument): the chat then passes the turn's
     * working config beside the arguments ({@link ToolInvocation#workingConfig}), which the tool takes when the model
     * leaves {@code config} out, so the model never copies a config by hand.
     */
    public boolean takesWorkingConfig() {
        return parameters != null && parameters.path("properties").has(CONFIG_ARGUMENT);
    }

    /**
     * The JSON Schema of the arguments as the chat's model is sent it. For a tool that takes the working config
     * ({@link #takesWorkingConfig}) {@code config} is optional and says that leaving it out means the working config;
     * any other tool's is {@link #parameters} itself. Only the chat keeps a working config: MCP and the tool functions
     * read {@link #parameters} as written. Derived from the definition, never edited per call: the registry derives
     * it once per tool ({@link ToolRegistry#chatParameters}).
     */
    public ObjectNode chatParameters() {
        ObjectNode schema = parameters == null ? Json.object().put("type", "object") : parameters;
        JsonNode config = schema.path("properties").get(CONFIG_ARGUMENT);
        if (config == null) {
            return schema;
        }
        schema = schema.deepCopy();
        ObjectNode properties = (ObjectNode) schema.get("properties");
        ObjectNode described = config.isObject() ? ((ObjectNode) config).deepCopy() : Json.object();
        described.put("description", "The Config to change. Omit it to use the current working config.");
        properties.set(CONFIG_ARGUMENT, described);
        if (schema.get("required") instanceof ArrayNode required) {
            ArrayNode rest = Json.MAPPER.createArrayNode();
            required.forEach(r -> {
                if (!CONFIG_ARGUMENT.equals(r.asText())) {
                    rest.add(r);
                }
            });
            schema.set("required", rest);
        }
        return schema;
    }

    public boolean isCoreIn(String context) {
        return coreIn.contains(context);
    }
}
