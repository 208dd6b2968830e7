package dev.tablewright.systemtest.model;

import dev.tablewright.fakes.model.ConverseRequestRules;

import dev.tablewright.bedrock.ConverseRequest;
import dev.tablewright.agent.model.ModelMessage;
import dev.tablewright.agent.model.ModelRequest;
import dev.tablewright.agent.model.ModelTool;
import dev.tablewright.agent.model.ToolCallRequest;
import dev.tablewright.json.Json;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

import java.time.Instant;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Whatever history the turn hands over (any order of system, user, assistant and tool-result messages, as a stored
 * conversation cut by the memory budget can leave it), the ConverseStream body keeps every rule Bedrock checks.
 */
class ConverseRequestPropertyTest {

    @Property(tries = 400)
    void everyHistoryBecomesARequestBedrockAccepts(@ForAll("histories") List<ModelMessage> history, @ForAll boolean toolsOffered) {
        List<ModelTool> tools = toolsOffered
                ? List.of(new ModelTool("apply_column_change", "Change a column", Json.object().put("type", "object")),
                        new ModelTool("preview_table_config", "", Json.object().put("type", "object")))
                : List.of();
        var body = ConverseRequest.body(new ModelRequest(history, tools, 1024, Instant.now().plusSeconds(60), null));
        assertEquals(List.of(), ConverseRequestRules.violations(body), () -> "history " + history + " became " + Json.write(body));
    }

    @Provide
    Arbitrary<List<ModelMessage>> histories() {
        Arbitrary<String> ids = Arbitraries.of("call_1", "call_2", "call.3/x", "tooluse_abc", "");
        Arbitrary<String> texts = Arbitraries.of("", "  ", "add the warehouse name", "Done.");
        Arbitrary<String> results = Arbitraries.of("{\"valid\":true}", "{\"error\":\"bad\"}", "plain text", "", "[1,2]", "null");
        Arbitrary<String> arguments = Arbitraries.of("{}", "{\"column\":\"name\"}", "{not json", "", "[]");
        Arbitrary<ToolCallRequest> calls = Combinators.combine(ids, Arbitraries.of("apply_column_change", "preview_table_config"), arguments)
                .as(ToolCallRequest::new);
        Arbitrary<ModelMessage> message = Arbitraries.oneOf(
                texts.map(ModelMessage.System::new),
                texts.map(ModelMessage.User::new),
                Combinators.combine(texts, calls.list().ofMaxSize(3)).as(ModelMessage.Assistant::new),
                Combinators.combine(ids, results).as(ModelMessage.ToolResult::new));
        return message.list().ofMaxSize(12);
    }
}
