package dev.tablewright.toolcontract;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tablewright.failure.ErrorCode;
import dev.tablewright.json.Json;
import dev.tablewright.json.JsonFields;
import dev.tablewright.validation.ValidationCollector;
import dev.tablewright.validation.ValidationError;

import java.util.ArrayList;
import java.util.List;

/**
 * The one reader and writer of a tool's answer (docs/tools.md): {@code status}, then whichever of {@code output},
 * {@code effect}, {@code request} (what the user must give) and {@code error} ({@code code}, {@code message} and the
 * bad fields, each left out when empty) the outcome has. Built as a tree, so writing an answer never reaches databind's
 * bean introspection (a few hundred classes at a tool function's first invocation).
 */
public final class ToolOutcomeJson {

    private ToolOutcomeJson() {
    }

    public static ObjectNode write(ToolOutcome outcome) {
        ObjectNode node = Json.object().put("status", outcome.status().wireName());
        switch (outcome) {
            case ToolOutcome.Ok ok -> {
                if (ok.output() != null) {
                    node.set("output", ok.output());
                }
                if (ok.effect().wireName() != null) {
                    node.put("effect", ok.effect().wireName());
                }
            }
            case ToolOutcome.NeedsInput asked -> {
                if (asked.request() != null) {
                    node.set("request", write(asked.request()));
                }
            }
            case ToolOutcome.Failed failed -> node.set("error", write(failed.error()));
        }
        return node;
    }

    public static ObjectNode write(UserInputRequirement r) {
        ObjectNode o = Json.object();
        if (r.reason() != null) {
            o.put("reason", r.reason());
        }
        o.set("fields", InputFieldJson.write(r.fields()));
        o.put("saveForSession", r.saveForSession());
        o.put("scope", r.scope().wireName());
        return o;
    }

    public static ObjectNode write(ToolError error) {
        ObjectNode e = Json.object();
        Json.putIfNotEmpty(e, "code", error.code() == null ? null : error.code().wireName());
        Json.putIfNotEmpty(e, "message", error.message());
        if (error.errors() != null && !error.errors().isEmpty()) {
            ArrayNode errors = e.putArray("errors");
            for (ValidationError v : error.errors()) {
                ObjectNode item = errors.addObject();
                Json.putIfNotEmpty(item, "field", v.field());
                Json.putIfNotEmpty(item, "message", v.message());
            }
        }
        return e;
    }

    /**
     * A tool function's answer, read back by the chat.
     *
     * @throws IllegalArgumentException naming the first problem, when the answer is not a tool outcome
     */
    public static ToolOutcome read(JsonNode answer) {
        if (answer == null || !answer.isObject()) {
            throw new IllegalArgumentException("a tool's answer must be a JSON object");
        }
        ValidationCollector problems = new ValidationCollector();
        JsonFields o = JsonFields.of((ObjectNode) answer, "", problems::error, JsonFields.Wording.PLAIN);
        JsonFields request = o.at("request");
        JsonFields error = o.at("error");
        ToolOutcome.Status status = o.parsed("status", ToolOutcome.Status::fromWire);
        JsonNode output = o.value("output");
        String effect = o.text("effect");
        UserInputRequirement requirement = request == null ? null : requirement(request);
        ToolError failure = error == null ? null : error(error);
        if (!problems.hasErrors() && status == null) {
            throw new IllegalArgumentException("not a tool outcome: status: required");
        }
        if (problems.hasErrors()) {
            ValidationError first = problems.report().errors().get(0);
            throw new IllegalArgumentException("not a tool outcome: " + first.field() + ": " + first.message());
        }
        return switch (status) {
            case OK -> new ToolOutcome.Ok(output, effect(effect, output));
            case NEEDS_INPUT -> new ToolOutcome.NeedsInput(requirement);
            case ERROR -> new ToolOutcome.Failed(failure);
        };
    }

    /**
     * The effect an answer's {@code effect} name and {@code output} describe: the one place an effect is read from an
     * answer's shape, since the envelope carries only its name.
     */
    private static ToolEffect effect(String wireName, JsonNode output) {
        if (wireName == null || output == null) {
            return ToolEffect.NONE;
        }
        return switch (wireName) {
            case "proposed_config" -> new ToolEffect.ProposedConfig(output.get("config"));
            case "invalid_config" -> {
                List<ValidationError> errors = new ArrayList<>();
                for (JsonNode e : output.path("errors")) {
                    errors.add(e.isObject() ? new ValidationError(e.path("field").asText(null), e.path("message").asText(null))
                            : new ValidationError(null, e.asText()));
                }
                yield new ToolEffect.InvalidConfig(errors);
            }
            case "previewed" -> new ToolEffect.Previewed(output.path("previewId").asText(null), output.get("config"));
            default -> ToolEffect.NONE;
        };
    }

    private static UserInputRequirement requirement(JsonFields r) {
        Boolean save = r.bool("saveForSession");
        return new UserInputRequirement(r.text("reason"), r.objects("fields", f -> InputFieldJson.read(f, false)),
                Boolean.TRUE.equals(save), r.parsed("scope", ValueScope::fromWire));
    }

    private static ToolError error(JsonFields e) {
        List<ValidationError> errors = e.objects("errors", item -> new ValidationError(item.text("field"), item.text("message")));
        return new ToolError(e.parsed("code", ErrorCode::fromWire), e.text("message"), errors == null ? List.of() : new ArrayList<>(errors));
    }
}
