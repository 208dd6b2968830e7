package dev.tablewright.checks.docs;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.util.DefaultIndenter;
import com.fasterxml.jackson.core.util.DefaultPrettyPrinter;
import com.fasterxml.jackson.core.util.Separators;
import com.fasterxml.jackson.databind.JsonNode;
import dev.tablewright.json.Json;
import dev.tablewright.toolcontract.InputField;
import dev.tablewright.toolcontract.ToolDefinition;
import dev.tablewright.toolcontract.ToolRegistry;
import dev.tablewright.toolcontract.UserInputRequirement;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * docs/tools.md, rendered from {@link ToolRegistry}: what each tool does, its arguments, which doors offer it, where it runs, whether it
 * asks the user for input and in which contexts it is a core tool. {@code ToolReferenceTest} fails when the file
 * differs from this rendering.
 */
public final class ToolReference {

    public static final String REGENERATE = "mvn -B -q -pl infra/build-checks -am verify -Dtest=ToolReferenceTest "
            + "-Dsurefire.failIfNoSpecifiedTests=false -Dtools.docs.update=true";

    private static final DefaultPrettyPrinter PRETTY = new DefaultPrettyPrinter()
            .withSeparators(Separators.createDefaultInstance().withObjectFieldValueSpacing(Separators.Spacing.AFTER))
            .withObjectIndenter(new DefaultIndenter("  ", "\n"))
            .withArrayIndenter(new DefaultIndenter("  ", "\n"));

    private ToolReference() {
    }

    public static String render(ToolRegistry registry) {
        StringBuilder md = new StringBuilder();
        md.append("# Tool reference\n\n");
        md.append("<!-- Generated from the tool catalogue by ToolReferenceTest: do not edit by hand. To regenerate:\n     ")
                .append(REGENERATE).append(" -->\n\n");
        md.append("Every tool of the tool catalogue (`ToolCatalogue`), as a model sees it, and the doors that offer it: the ")
                .append("chat, MCP ([mcp.md](mcp.md)), an MCP App's view (its buttons, never a model's). On the chat, core tools are sent on every turn of their ")
                .append("page context; the others are found through the catalogue search. A tool that runs as a Lambda ")
                .append("function takes the invocation envelope (`{\"tool\", \"arguments\", \"sessionValues\", ...}`; one that takes ")
                .append("`config` also gets the chat's working config as `workingConfig`, which it works on when the arguments ")
                .append("hold no `config`) or bare ")
                .append("arguments and answers `{\"status\": \"ok\" | \"needs_input\" | \"error\", ...}`, an ok answer with the ")
                .append("`effect` the chat acts on (`proposed_config`, `invalid_config`, `previewed`, or none); try one with ")
                .append("`infra/bin/invoke <FunctionLogicalId> --event <file>`.\n\n");

        md.append("| tool | offered on | runs | core in | asks the user |\n|---|---|---|---|---|\n");
        for (ToolDefinition tool : registry.all()) {
            md.append("| [`").append(tool.name()).append("`](#").append(tool.name()).append(") | ")
                    .append(doors(tool)).append(" | ").append(runs(tool)).append(" | ").append(contexts(tool)).append(" | ")
                    .append(tool.requiresUserInput() == null ? "no" : "yes").append(" |\n");
        }
        if (registry.all().isEmpty()) {
            md.append("| (no tools yet) | | | | |\n");
        }

        for (ToolDefinition tool : registry.all()) {
            md.append("\n## ").append(tool.name()).append("\n\n");
            md.append(tool.description().strip()).append("\n\n");
            md.append("- Offered on: ").append(doors(tool)).append(tool.needsApproval() ? " (the user approves each call)" : "")
                    .append("\n");
            md.append("- Runs: ").append(runs(tool)).append("\n");
            if (tool.view() != null) {
                md.append("- Shown in: the MCP App view `").append(tool.view())
                        .append("` for a client that renders views ([mcp.md](mcp.md#the-preview-as-an-mcp-app))\n");
            }
            md.append("- Core tool in: ").append(tool.coreIn().isEmpty()
                    ? "no context (found through the catalogue search)" : contexts(tool)).append("\n");
            md.append("- Asks the user: ").append(userInput(tool.requiresUserInput())).append("\n\n");
            arguments(md, tool.parameters());
        }
        return md.toString();
    }

    private static String runs(ToolDefinition tool) {
        if (tool.runsOn() == ToolDefinition.RunsOn.FUNCTION) {
            return "Lambda `" + tool.functionLogicalId() + "`";
        }
        return tool.isOn(ToolDefinition.Audience.AGENT) ? "inside the chat function" : "inside the MCP function";
    }

    private static String doors(ToolDefinition tool) {
        List<String> doors = new ArrayList<>();
        if (tool.isOn(ToolDefinition.Audience.AGENT)) {
            doors.add("chat");
        }
        if (tool.isOn(ToolDefinition.Audience.MCP_HOST)) {
            doors.add("MCP");
        }
        if (tool.isOn(ToolDefinition.Audience.APP_VIEW)) {
            doors.add("MCP App view");
        }
        return doors.isEmpty() ? "no door (for scripted callers)" : String.join(", ", doors);
    }

    private static String contexts(ToolDefinition tool) {
        if (tool.coreIn().isEmpty()) {
            return "—";
        }
        return String.join(", ", tool.coreIn().stream().sorted().map(c -> "`" + c + "`").toList());
    }

    private static String userInput(UserInputRequirement input) {
        if (input == null) {
            return "no";
        }
        StringBuilder s = new StringBuilder("yes, when a value below is neither in the arguments nor saved: ")
                .append(cell(input.reason()));
        s.append(input.saveForSession() ? " (answers are saved, scope `" + input.scope().wireName() + "`)" : " (answers are not saved)");
        for (InputField f : input.fields()) {
            s.append("\n  - `").append(f.name()).append("` (").append(f.type() == null ? "text" : f.type().wireName())
                    .append(f.isRequired() ? ", required" : "").append(")");
            if (f.label() != null) {
                s.append(": ").append(cell(f.label()));
            }
            if (f.options() != null && !f.options().isEmpty()) {
                s.append("; options ").append(String.join(", ", f.options().stream().map(o -> "`" + o + "`").toList()));
            }
            if (f.description() != null) {
                s.append(" — ").append(cell(f.description()));
            }
        }
        return s.toString();
    }

    private static void arguments(StringBuilder md, JsonNode schema) {
        JsonNode properties = schema == null ? null : schema.get("properties");
        if (properties == null || properties.isEmpty()) {
            md.append("No arguments.\n");
            return;
        }
        Set<String> required = new HashSet<>();
        schema.path("required").forEach(r -> required.add(r.asText()));
        md.append("| argument | type | required | description |\n|---|---|---|---|\n");
        for (Iterator<Map.Entry<String, JsonNode>> it = properties.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> p = it.next();
            md.append("| `").append(p.getKey()).append("` | ").append(type(p.getValue())).append(" | ")
                    .append(required.contains(p.getKey()) ? "yes" : "").append(" | ")
                    .append(cell(p.getValue().path("description").asText(""))).append(" |\n");
        }
        md.append("\n<details><summary>JSON Schema of the arguments</summary>\n\n```json\n")
                .append(pretty(schema)).append("\n```\n\n</details>\n");
    }

    /** {@code string}, {@code "add" | "remove"}, {@code array of object}, ... */
    static String type(JsonNode property) {
        JsonNode values = property.get("enum");
        if (values != null && values.isArray()) {
            List<String> out = new ArrayList<>();
            values.forEach(v -> out.add("`" + v.asText() + "`"));
            return String.join(" \\| ", out);
        }
        JsonNode type = property.get("type");
        String name = type == null ? (property.has("oneOf") || property.has("anyOf") ? "one of several" : "any")
                : type.isArray() ? String.join(" or ", iterable(type)) : type.asText();
        if ("array".equals(name) && property.has("items")) {
            return "array of " + type(property.get("items"));
        }
        return name;
    }

    private static List<String> iterable(JsonNode array) {
        List<String> out = new ArrayList<>();
        array.forEach(n -> out.add(n.asText()));
        return out;
    }

    private static String cell(String text) {
        return text == null ? "" : text.strip().replace("\r", "").replace("\n", " ").replace("|", "\\|");
    }

    private static String pretty(JsonNode node) {
        try {
            return Json.MAPPER.writer(PRETTY).writeValueAsString(node);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }
}
