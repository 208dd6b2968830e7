package dev.tablewright.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.knuddels.jtokkit.Encodings;
import com.knuddels.jtokkit.api.Encoding;
import com.knuddels.jtokkit.api.EncodingType;
import dev.tablewright.eval.EvalCommand;
import dev.tablewright.fakes.model.RecordedRequest;
import dev.tablewright.fakes.model.ScriptedModelServer;
import dev.tablewright.fakes.model.ScriptedTurn;
import dev.tablewright.json.Json;
import dev.tablewright.localstack.demo.DemoModel;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * What the corpus costs in tokens, measured with the offline demo model: {@code infra/bin/eval} on the tasks written
 * in its phrasings (or whatever the arguments select), the demo model's rules answering behind an OpenAI-compatible
 * endpoint that reports each answer's usage as counted with {@code o200k_base} (GPT-4o's and GPT-4.1's tokenizer):
 * the input is every message of the request (its text, its tool calls' names and arguments, 4 tokens of framing each)
 * and the tool definitions as JSON, the output the answer's text and tool calls. So the requests are the real ones (the
 * system prompt, the tools, the memory, the tool results of this stack), only the model is the demo's rules, and the
 * report's token figures come through the same usage path a live model's do.
 *
 * <pre>infra/bin/eval-tokens [--runs K] [--price IN,OUT] [--out DIR] ...   (any option of infra/bin/eval)</pre>
 */
public final class EvalTokens {

    /** Framing tokens per message and for the reply, as OpenAI's chat format adds them. */
    private static final int PER_MESSAGE = 4;
    private static final int REPLY_PRIMING = 3;

    private EvalTokens() {
    }

    public static void main(String[] args) throws Exception {
        Encoding encoding = Encodings.newDefaultEncodingRegistry().getEncoding(EncodingType.O200K_BASE);
        DemoModel demo = new DemoModel();
        try (ScriptedModelServer server = ScriptedModelServer.answering(0, "counted-demo-model",
                request -> counted(demo.apply(request), request, encoding))) {
            Map<String, String> env = new HashMap<>(System.getenv());
            env.keySet().removeIf(k -> k.startsWith("OPENAI_") || k.startsWith("BEDROCK_") || k.equals("MODEL_PROVIDER"));
            env.put("OPENAI_BASE_URL", server.baseUrl());
            env.put("OPENAI_MODEL", DemoModel.NAME);
            List<String> all = new ArrayList<>(List.of("--tag", "demo", "--out", "target/eval-tokens"));
            all.addAll(List.of(args)); // a later --tag, --only or --out wins
            Path callerDir = Path.of(System.getProperty("tablewright.eval.dir", ""));
            System.exit(new EvalCommand(System.out, System.err, callerDir).run(all.toArray(String[]::new), env, null));
        }
    }

    /** The demo's answer with the usage its request and its content count to. */
    static ScriptedTurn counted(ScriptedTurn answer, RecordedRequest request, Encoding encoding) {
        if (!(answer instanceof ScriptedTurn.Completion c)) {
            return answer;
        }
        return new ScriptedTurn.Completion(c.steps(), c.finishReason(),
                new ScriptedTurn.Usage(inputTokens(request.body(), encoding), outputTokens(c, encoding)));
    }

    static int inputTokens(JsonNode body, Encoding encoding) {
        int n = REPLY_PRIMING;
        for (JsonNode message : body.path("messages")) {
            n += PER_MESSAGE;
            JsonNode content = message.path("content");
            if (content.isTextual()) {
                n += encoding.countTokens(content.asText());
            } else if (content.isArray()) {
                for (JsonNode part : content) {
                    n += encoding.countTokens(part.path("text").asText(""));
                }
            }
            for (JsonNode call : message.path("tool_calls")) {
                n += encoding.countTokens(call.path("function").path("name").asText(""))
                        + encoding.countTokens(call.path("function").path("arguments").asText(""));
            }
        }
        if (body.hasNonNull("tools")) {
            n += encoding.countTokens(Json.write(body.get("tools")));
        }
        return n;
    }

    static int outputTokens(ScriptedTurn.Completion answer, Encoding encoding) {
        int n = 0;
        for (ScriptedTurn.Step step : answer.steps()) {
            n += switch (step) {
                case ScriptedTurn.Step.Text t -> encoding.countTokens(t.delta());
                case ScriptedTurn.Step.ToolCallStart s -> encoding.countTokens(s.name());
                case ScriptedTurn.Step.ToolArguments a -> encoding.countTokens(a.fragment());
                default -> 0;
            };
        }
        return n;
    }
}
