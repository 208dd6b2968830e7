package dev.tablewright.userinput;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.BooleanNode;
import com.fasterxml.jackson.databind.node.DecimalNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.tablewright.json.Json;
import dev.tablewright.toolcontract.ExecutionGate;
import dev.tablewright.toolcontract.FieldType;
import dev.tablewright.toolcontract.InputField;
import dev.tablewright.toolcontract.ToolDefinition;
import dev.tablewright.toolcontract.ToolInvocation;
import dev.tablewright.toolcontract.ToolOutcome;
import dev.tablewright.toolcontract.UserInputRequirement;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The executor's user-input check, called by the chat turn before it
 * invokes a tool and by every tool Lambda ({@code ToolFunction}) before the tool runs.
 *
 * <p>For a tool with {@code requiresUserInput}, each field's value is looked up in the tool's arguments, then the
 * conversation's saved values, then the user's ({@link SavedValues}; in a tool Lambda, the envelope's
 * {@code sessionValues}, which the chat turn fills in the same order). A value only counts if it passes the
 * field's own checks. Known values are merged into the arguments (typed: numbers as numbers, booleans as
 * booleans). If a required, shown field is still unknown, the answer is a request for exactly the unknown fields
 * (plus the conditional fields they control), so the user is never asked again for what is known.
 */
public final class UserInputGate implements ExecutionGate {

    public static final UserInputGate INSTANCE = new UserInputGate();

    /** What to do with a tool call. */
    public sealed interface Decision permits Proceed, AskUser {
    }

    /** Run the tool with these arguments (the original ones, with every known input value merged in). */
    public record Proceed(ObjectNode arguments) implements Decision {
    }

    /** Ask the user for these fields first. */
    public record AskUser(UserInputRequirement request) implements Decision {
    }

    public Decision decide(ToolDefinition tool, ObjectNode arguments, SavedValues saved) {
        return decide(tool, arguments, name -> saved.lookup(name).map(SavedValue::value));
    }

    /** With {@code sessionValues} as a tool invocation carries them (already conversation-over-user). */
    public Decision decide(ToolDefinition tool, ObjectNode arguments, Map<String, String> sessionValues) {
        Map<String, String> values = sessionValues == null ? Map.of() : sessionValues;
        return decide(tool, arguments, name -> Optional.ofNullable(values.get(name)));
    }

    private interface Lookup {
        Optional<String> find(String name);
    }

    private Decision decide(ToolDefinition tool, ObjectNode arguments, Lookup saved) {
        ObjectNode merged = arguments == null ? Json.object() : arguments.deepCopy();
        UserInputRequirement requirement = tool.requiresUserInput();
        if (requirement == null || requirement.fields().isEmpty()) {
            return new Proceed(merged);
        }
        Map<String, InputField> byName = new LinkedHashMap<>();
        requirement.fields().forEach(f -> byName.put(f.name(), f));

        Map<String, String> known = new HashMap<>();
        for (InputField f : requirement.fields()) {
            JsonNode argument = merged.get(f.name());
            if (!InputFieldValidator.isAbsent(argument)) {
                InputFieldValidator.Check c = InputFieldValidator.check(f, argument);
                if (c.problem() == null) {
                    known.put(f.name(), c.value());
                    continue;
                }
            }
            saved.find(f.name()).ifPresent(value -> {
                InputFieldValidator.Check c = InputFieldValidator.check(f, TextNode.valueOf(value));
                if (c.problem() == null) {
                    known.put(f.name(), c.value());
                    merged.set(f.name(), typed(f, c.value()));
                }
            });
        }

        boolean missing = requirement.fields().stream().anyMatch(f -> f.isRequired() && !known.containsKey(f.name())
                && InputFieldValidator.shown(f, byName, known, 0));
        if (!missing) {
            return new Proceed(merged);
        }
        // Ask for the unknown fields that are shown, and the conditional fields whose controller is being asked.
        Set<String> ask = new LinkedHashSet<>();
        boolean grew = true;
        while (grew) {
            grew = false;
            for (InputField f : requirement.fields()) {
                if (known.containsKey(f.name()) || ask.contains(f.name())) {
                    continue;
                }
                boolean include = f.showWhen() == null
                        ? true
                        : InputFieldValidator.shown(f, byName, known, 0) || ask.contains(f.showWhen().field());
                if (include) {
                    ask.add(f.name());
                    grew = true;
                }
            }
        }
        List<InputField> fields = new ArrayList<>();
        requirement.fields().forEach(f -> {
            if (ask.contains(f.name())) {
                fields.add(f);
            }
        });
        return new AskUser(new UserInputRequirement(requirement.reason(), fields, requirement.saveForSession(), requirement.scope()));
    }

    private static JsonNode typed(InputField f, String value) {
        if (f.type() == FieldType.NUMBER) {
            return DecimalNode.valueOf(new BigDecimal(value));
        }
        if (f.type() == FieldType.BOOLEAN) {
            return BooleanNode.valueOf(Boolean.parseBoolean(value));
        }
        return TextNode.valueOf(value);
    }

    // ---- ExecutionGate: how a tool Lambda (ToolFunction) uses it ----

    @Override
    public Optional<ToolOutcome> check(ToolDefinition tool, ToolInvocation invocation) {
        return decide(tool, invocation.arguments(), invocation.sessionValues()) instanceof AskUser ask
                ? Optional.of(ToolOutcome.needsInput(ask.request()))
                : Optional.empty();
    }

    @Override
    public ToolInvocation admit(ToolDefinition tool, ToolInvocation invocation) {
        return decide(tool, invocation.arguments(), invocation.sessionValues()) instanceof Proceed proceed
                ? invocation.withArguments(proceed.arguments())
                : invocation;
    }
}
