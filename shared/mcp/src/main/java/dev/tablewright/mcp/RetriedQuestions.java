package dev.tablewright.mcp;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tablewright.agent.toolcall.UserInputPort;
import dev.tablewright.door.FormAnswers;
import dev.tablewright.json.Json;
import dev.tablewright.logging.StructuredLog;
import dev.tablewright.toolcontract.FieldType;
import dev.tablewright.toolcontract.UserInputRequirement;

import java.time.Clock;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * A 2026-07-28 request's questions, as multi round-trip requests: a question ends the call at once with
 * {@code resultType: "input_required"} (its {@code elicitation/create} in {@code inputRequests}, and a sealed
 * {@code requestState} carrying what the call knows so far); the client asks the user and retries the call with the
 * answer in {@code inputResponses}, at whichever instance, and the retry reads it here. Nothing waits and nothing is
 * polled. A secret is asked in URL mode: the reference page completes an input request of the lifecycle, which the
 * retry reads (the secret never travels in the state).
 */
final class RetriedQuestions implements Questions {

    /** What a retry brings: the state it echoed (opened) and its answers; both empty on a first call. */
    record Retry(Optional<ObjectNode> carried, Optional<JsonNode> inputResponses) {
        static final Retry NONE = new Retry(Optional.empty(), Optional.empty());
    }

    private static final StructuredLog LOG = StructuredLog.of(RetriedQuestions.class);

    private final McpSettings settings;
    private final FormAnswers answers;
    private final UserInputPort userInput;
    private final McpCaller caller;
    private final RequestStateSeal seal;
    private final RequestStateSeal.Binding binding;
    private final Retry retry;
    private final Clock clock;
    /** Fields whose values came from the page (secrets): never carried in a state. */
    private final java.util.Set<String> secretFields = new java.util.HashSet<>();

    RetriedQuestions(McpSettings settings, FormAnswers answers, UserInputPort userInput, McpCaller caller,
                     RequestStateSeal seal, RequestStateSeal.Binding binding, Retry retry, Clock clock) {
        this.settings = settings;
        this.answers = answers;
        this.userInput = userInput;
        this.caller = caller;
        this.seal = seal;
        this.binding = binding;
        this.retry = retry;
        this.clock = clock;
    }

    /** The values a retry's state carries (answers of earlier rounds); empty on a first call. */
    static Map<String, String> carriedValues(Optional<ObjectNode> carried) {
        Map<String, String> values = new LinkedHashMap<>();
        carried.ifPresent(c -> c.path("v").fields().forEachRemaining(e -> values.put(e.getKey(), e.getValue().asText())));
        return values;
    }

    /** The key of a question in {@code inputRequests}: its fields, so the same question gets the same key on a retry. */
    static String keyOf(UserInputRequirement requirement) {
        StringBuilder key = new StringBuilder("tablewright");
        requirement.fields().forEach(f -> key.append('_').append(f.name()));
        return key.toString();
    }

    @Override
    public Asked ask(String toolName, UserInputRequirement requirement, Map<String, String> soFar, String onDecline) {
        String key = keyOf(requirement);
        boolean secret = ElicitationForms.hasSecret(requirement);
        Optional<ObjectNode> pending = retry.carried().filter(c -> key.equals(c.path("q").asText(null)));
        if (pending.isPresent()) {
            Optional<Asked> answered = secret ? fromThePage(toolName, requirement, key, pending.get(), soFar, onDecline)
                    : fromTheResponse(toolName, requirement, key, soFar, onDecline);
            if (answered.isPresent()) {
                return answered.get();
            }
        }
        if (secret) {
            // secrets never go through form mode (the spec forbids it): the page's own form takes them
            if (!caller.elicitsUrls() || settings.pageUrl() == null) {
                return ToolCall.ends(ToolResults.failure(toolName + " needs a secret value, which is never asked for "
                        + "in a client's form. Enter it on the Tablewright page, then call the tool again."));
            }
            return onThePage(toolName, requirement, key, soFar);
        }
        if (!caller.elicitsForms()) {
            return ToolCall.ends(ToolResults.failure(ElicitationForms.whatIsNeeded(toolName, requirement)));
        }
        ObjectNode params = Json.object().put("mode", "form").put("message", requirement.reason());
        params.set("requestedSchema", ElicitationForms.requestedSchema(toolName, requirement));
        return inputRequired(key, params, carried(key, soFar));
    }

    /**
     * The retry's answer to a form question: its values (checked against the form, and kept for the user where the
     * question keeps them, by the kit's {@link FormAnswers}), a decline, or (no usable answer) empty: ask again.
     */
    private Optional<Asked> fromTheResponse(String toolName, UserInputRequirement requirement, String key,
                                            Map<String, String> soFar, String onDecline) {
        JsonNode response = retry.inputResponses().map(r -> r.get(key)).orElse(null);
        if (response == null || !response.isObject()) {
            return Optional.empty(); // not answered: the spec's way is to ask again
        }
        String action = response.path("action").asText("");
        if (!action.equals("accept")) {
            return Optional.of(Asked.declined(Asked.declinedBy(action), onDecline));
        }
        JsonNode content = response.path("content").isObject() ? response.path("content") : Json.object();
        // a 2026 request has no conversation: a value kept for the user is kept as a request of its own
        if (answers.answer(caller.ownerId(), "mcp-q-" + ToolCall.newId(""), ToolCall.newId("mcp_"), toolName, requirement,
                content) instanceof FormAnswers.Settled.Taken taken) {
            return Optional.of(new Asked(taken.values(), null));
        }
        LOG.info("answer refused as invalid: asked again", "tool", toolName);
        return Optional.empty();
    }

    /** The retry of a question asked on the page: the page's values once it completed the request. */
    private Optional<Asked> fromThePage(String toolName, UserInputRequirement requirement, String key, ObjectNode pending,
                                        Map<String, String> soFar, String onDecline) {
        String conversation = pending.path("pc").asText("");
        String requestId = pending.path("pr").asText("");
        JsonNode response = retry.inputResponses().map(r -> r.get(key)).orElse(null);
        String action = response == null ? "" : response.path("action").asText("");
        Optional<UserInputPort.Answer> answer = userInput.answer(caller.ownerId(), conversation, requestId);
        if (answer.isEmpty()) {
            return Optional.empty(); // gone (its lifetime ended): ask again
        }
        if (answer.get().completed()) {
            requirement.fields().stream().filter(f -> f.type() == FieldType.SECRET).forEach(f -> secretFields.add(f.name()));
            return Optional.of(new Asked(answer.get().values(), null));
        }
        if (!answer.get().pending()) {
            return Optional.of(Asked.declined(answer.get().status(), onDecline));
        }
        if (action.equals("decline") || action.equals("cancel")) {
            answers.decline(caller.ownerId(), conversation, requestId); // settled meanwhile: the next retry reads how
            return Optional.of(Asked.declined(Asked.declinedBy(action), onDecline));
        }
        // accepted, but the page has not been submitted yet: the same question again, the same page
        return Optional.of(inputRequired(key, urlParams(requirement, conversation, requestId), pending));
    }

    private Asked onThePage(String toolName, UserInputRequirement requirement, String key, Map<String, String> soFar) {
        String conversation = "mcp-q-" + ToolCall.newId("");
        String requestId = ToolCall.newId("mcp_");
        try {
            userInput.request(caller.ownerId(), conversation, requestId, toolName, requirement);
        } catch (RuntimeException e) {
            LOG.error("the input request could not be created", e, "tool", toolName);
            return ToolCall.ends(ToolResults.failure("The question for " + toolName + " could not be asked just now; try again shortly."));
        }
        ObjectNode carried = carried(key, soFar).put("pc", conversation).put("pr", requestId);
        return inputRequired(key, urlParams(requirement, conversation, requestId), carried);
    }

    private ObjectNode urlParams(UserInputRequirement requirement, String conversation, String requestId) {
        return Json.object().put("mode", "url").put("message", requirement.reason())
                .put("url", settings.pageUrl() + "?conversation=" + conversation + "&inputRequest=" + requestId);
    }

    /** What the state carries: the question asked and the values known so far (never a secret's). */
    private ObjectNode carried(String key, Map<String, String> soFar) {
        ObjectNode carried = Json.object().put("q", key);
        ObjectNode values = carried.putObject("v");
        soFar.forEach((name, value) -> {
            if (!secretFields.contains(name)) {
                values.put(name, value);
            }
        });
        return carried;
    }

    private Asked inputRequired(String key, ObjectNode elicitation, ObjectNode carried) {
        ObjectNode result = Json.object().put("resultType", "input_required");
        ObjectNode request = result.putObject("inputRequests").putObject(key).put("method", "elicitation/create");
        request.set("params", elicitation);
        Duration lifetime = settings.requestStateTtl();
        result.put("requestState", seal.seal(binding, clock.instant().plus(lifetime), carried));
        return new Asked(null, new ToolCall.Outcome(null, result, null));
    }

}
