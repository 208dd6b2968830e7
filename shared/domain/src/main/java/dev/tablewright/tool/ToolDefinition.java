package dev.tablewright.tool;

import com.fasterxml.jackson.databind.node.ObjectNode;

import java.util.Set;

/**
 * A tool, described once: the prompt, the OpenAI tool list, docs/tools.md and template.yaml all follow
 * from this record.
 *
 * @param name              the name the model calls, snake_case
 * @param description       written for a language model
 * @param parameters        JSON Schema of the arguments
 * @param requiresUserInput optional: values only the user can give
 * @param coreIn            the page contexts that send this tool on every turn (others find it through the catalogue search)
 * @param runsOn            where the tool runs: its own Lambda function, or inside the chat function
 * @param offeredToModel    whether the chat may offer it to the model at all (a tool that bypasses the user's
 *                          accept, like a direct overwrite, is for other callers only)
 * @param worksOnDataSource whether it works on one of the configured data sources (the database tools, and the
 *                          operation tools that ground names in one): it then takes the conversation's saved choice of
 *                          database, even where only its function knows there are several to choose from
 */
public record ToolDefinition(String name, String description, ObjectNode parameters,
                             UserInputRequirement requiresUserInput, Set<String> coreIn, RunsOn runsOn,
                             boolean offeredToModel, boolean worksOnDataSource) {

    public ToolDefinition(String name, String description, ObjectNode parameters,
                          UserInputRequirement requiresUserInput, Set<String> coreIn, RunsOn runsOn, boolean offeredToModel) {
        this(name, description, parameters, requiresUserInput, coreIn, runsOn, offeredToModel, false);
    }

    /** The same tool, working on a data source ({@link #worksOnDataSource}). */
    public ToolDefinition onADataSource() {
        return new ToolDefinition(name, description, parameters, requiresUserInput, coreIn, runsOn, offeredToModel, true);
    }

    /** A tool the model may be offered (most are). */
    public ToolDefinition(String name, String description, ObjectNode parameters,
                          UserInputRequirement requiresUserInput, Set<String> coreIn, RunsOn runsOn) {
        this(name, description, parameters, requiresUserInput, coreIn, runsOn, true);
    }

    public enum RunsOn {
        /** A Lambda function of its own, named {@link #functionLogicalId()} in template.yaml. */
        FUNCTION,
        /** Inside the chat function (catalogue search, editable fields): no Lambda of its own. */
        CHAT
    }

    public ToolDefinition {
        coreIn = coreIn == null ? Set.of() : Set.copyOf(coreIn);
        runsOn = runsOn == null ? RunsOn.FUNCTION : runsOn;
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
     * working config when the model leaves it out, so the model never copies a config by hand.
     */
    public boolean takesWorkingConfig() {
        return parameters != null && parameters.path("properties").has("config");
    }

    public boolean isCoreIn(String context) {
        return coreIn.contains(context);
    }
}
