package dev.tablewright.agent.toolcall;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tablewright.toolcontract.ToolDefinition;
import dev.tablewright.toolcontract.UserInputRequirement;
import dev.tablewright.userinput.InputRequest;
import dev.tablewright.userinput.InputRequestNotFoundException;
import dev.tablewright.userinput.InputRequestService;
import dev.tablewright.userinput.NewInputRequest;
import dev.tablewright.userinput.UserInputGate;

import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * {@link UserInputPort} over the user-input lifecycle ({@link InputRequestService}, DynamoDB in AWS):
 * the executor's check ({@link UserInputGate}) against the arguments and the saved values, input requests keyed
 * by conversation and tool call id (so the tool call id is the request id), and their answers on resume.
 */
public final class UserInputLifecycle implements UserInputPort {

    private final InputRequestService service;

    public UserInputLifecycle(InputRequestService service) {
        this.service = service;
    }

    @Override
    public Readiness check(String ownerId, String conversationId, ToolDefinition tool, ObjectNode arguments, Map<String, String> submitted) {
        Map<String, String> values = new LinkedHashMap<>();
        // the conversation's saved values and the user's (a new conversation still sees the user-scoped ones) ...
        values.putAll(service.knownValues(ownerId, conversationId).asSessionValues());
        // ... but only those of fields this tool asks for: another tool's saved secret never reaches it
        if (!values.isEmpty()) {
            values.keySet().retainAll(declaredFields(ownerId, conversationId, tool));
        }
        values.putAll(submitted);
        return switch (UserInputGate.INSTANCE.decide(tool, arguments, values)) {
            case UserInputGate.Proceed proceed -> new Readiness(proceed.arguments(), values, Optional.empty());
            case UserInputGate.AskUser ask -> new Readiness(arguments, values, Optional.of(ask.request()));
        };
    }

    @Override
    public String request(String ownerId, String conversationId, String toolCallId, String toolName, UserInputRequirement requirement) {
        Optional<InputRequest> existing = find(ownerId, conversationId, toolCallId);
        if (existing.isPresent()) {
            return existing.get().toolCallId();
        }
        InputRequest created = service.create(ownerId, conversationId, new NewInputRequest(toolName, toolCallId,
                requirement.reason(), requirement.fields(), requirement.saveForSession(), requirement.scope()));
        return created.toolCallId();
    }

    @Override
    public Optional<Answer> answer(String ownerId, String conversationId, String toolCallId) {
        return find(ownerId, conversationId, toolCallId).map(r -> new Answer(r.toolCallId(),
                r.statusAt(service.now()).wireName(), r.values()));
    }

    /**
     * The fields the tool takes from the user: those its definition declares, and those its own function asked for in
     * this conversation (a database tool learns only in its function that it needs {@code database}).
     */
    private Set<String> declaredFields(String ownerId, String conversationId, ToolDefinition tool) {
        Set<String> names = new HashSet<>();
        if (tool.worksOnDataSource()) {
            names.add(dev.tablewright.catalogue.DataSources.FIELD);
        }
        if (tool.requiresUserInput() != null) {
            tool.requiresUserInput().fields().forEach(f -> names.add(f.name()));
        }
        try {
            for (InputRequest r : service.list(ownerId, conversationId, Optional.empty())) {
                if (tool.name().equals(r.toolName())) {
                    r.fields().forEach(f -> names.add(f.name()));
                }
            }
        } catch (InputRequestNotFoundException e) {
            // no request in this conversation yet
        }
        return names;
    }

    private Optional<InputRequest> find(String ownerId, String conversationId, String toolCallId) {
        try {
            return Optional.of(service.find(ownerId, conversationId, toolCallId));
        } catch (InputRequestNotFoundException e) {
            return Optional.empty();
        }
    }
}
