package dev.tablewright.localstack.chat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tablewright.json.Json;

import java.io.IOException;
import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;

/**
 * The assistant from a terminal: against the local stack or a deployed stack,
 * it holds a conversation over the chat endpoint, shows streamed text and tool steps as they happen, renders a
 * table-config preview as a small table of its sample rows and accepts or rejects it through the HTTP API, asks
 * for a tool's input field by field (secrets not echoed), submits it, and resumes the paused turn. Against the local
 * stack it first says which model answers (the offline demo model without a key).
 *
 * <pre>
 * infra/bin/chat                                   # the local stack on http://localhost:3000, token minted by its dev issuer
 * infra/bin/chat --api https://abc.execute-api.eu-west-1.amazonaws.com --chat https://xyz.lambda-url.eu-west-1.on.aws/ \
 *                --token "$ID_TOKEN"
 * </pre>
 * Commands: {@code /new} starts a new conversation, {@code /quit} (or end of input) leaves.
 */
public final class TerminalChat {

    /** Where to talk to and as whom. */
    public record Options(String apiUrl, String chatUrl, String token, String page, String configId, String conversationId) {
    }

    private final Options options;
    private final Terminal terminal;
    private final PrintStream out;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
    private final ChatClient client;
    private String conversationId;
    private ArrayNode messages = Json.MAPPER.createArrayNode();
    private boolean configLoaded;

    public TerminalChat(Options options, Terminal terminal) {
        this.options = options;
        this.terminal = terminal;
        this.out = terminal.out();
        this.client = new ChatClient(options.apiUrl(), options.chatUrl(), options.token(), Duration.ofMinutes(5));
        this.conversationId = options.conversationId() != null ? options.conversationId() : newConversationId();
    }

    public static void main(String[] args) throws Exception {
        String api = System.getenv().getOrDefault("TABLEWRIGHT_API_URL", "http://localhost:3000");
        String chat = System.getenv("TABLEWRIGHT_CHAT_URL");
        String token = System.getenv("TABLEWRIGHT_TOKEN");
        String user = "dev-user";
        String page = "tables";
        String configId = null;
        String conversation = null;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--api" -> api = args[++i];
                case "--chat" -> chat = args[++i];
                case "--token" -> token = args[++i];
                case "--user" -> user = args[++i];
                case "--page" -> page = args[++i];
                case "--config-id" -> configId = args[++i];
                case "--conversation" -> conversation = args[++i];
                case "-h", "--help" -> {
                    System.out.println("usage: infra/bin/chat [--api URL] [--chat URL] [--token JWT] [--user SUB] "
                            + "[--page tables] [--config-id ID] [--conversation ID]\n"
                            + "Defaults: the local stack at http://localhost:3000 (chat at /chat), a token from its "
                            + "development issuer for --user (default dev-user). Env: TABLEWRIGHT_API_URL, "
                            + "TABLEWRIGHT_CHAT_URL, TABLEWRIGHT_TOKEN.");
                    return;
                }
                default -> {
                    System.err.println("unknown argument " + args[i] + " (try --help)");
                    System.exit(2);
                }
            }
        }
        api = stripSlash(api);
        if (chat == null) {
            chat = api + "/chat";
        }
        if (token == null) {
            token = developmentToken(api, user);
        }
        new TerminalChat(new Options(api, chat, token, page, configId, conversation), Terminal.system()).run();
    }

    /** Only the local stack mints tokens ({@code /dev-issuer/token}); a deployed stack needs --token. */
    static String developmentToken(String api, String user) {
        try {
            HttpResponse<String> r = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                    URI.create(api + "/dev-issuer/token?sub=" + java.net.URLEncoder.encode(user, java.nio.charset.StandardCharsets.UTF_8)))
                    .timeout(Duration.ofSeconds(10)).GET().build(), HttpResponse.BodyHandlers.ofString());
            if (r.statusCode() == 200) {
                return Json.parse(r.body()).path("token").asText();
            }
        } catch (IOException | InterruptedException | RuntimeException e) {
            // fall through to the message
        }
        System.err.println("No token: " + api + " is not a running local stack (infra/bin/local-stack), so pass "
                + "--token <JWT> (or TABLEWRIGHT_TOKEN) for a deployed stack.");
        System.exit(1);
        return null;
    }

    public void run() {
        out.println("Tablewright chat — conversation " + conversationId + " (type /new for a new one, /quit to leave)");
        modelLine().ifPresent(out::println);
        while (true) {
            String line = terminal.readLine("\nyou> ");
            if (line == null || line.strip().equals("/quit") || line.strip().equals("/exit")) {
                out.println();
                return;
            }
            if (line.isBlank()) {
                continue;
            }
            if (line.strip().equals("/new")) {
                conversationId = newConversationId();
                messages = Json.MAPPER.createArrayNode();
                configLoaded = false;
                out.println("new conversation " + conversationId);
                continue;
            }
            say(line);
        }
    }

    /**
     * Which model answers, from the config.json the stack serves beside its page (the local stack does; a deployed
     * stack's API does not, and then nothing is said).
     */
    public java.util.Optional<String> modelLine() {
        try {
            HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(options.apiUrl() + "/config.json"))
                    .timeout(Duration.ofSeconds(10)).GET().build(), HttpResponse.BodyHandlers.ofString());
            JsonNode model = r.statusCode() == 200 ? parseOrEmpty(r.body()).path("model") : Json.object();
            if (!model.hasNonNull("label")) {
                return java.util.Optional.empty();
            }
            return java.util.Optional.of("model: " + model.get("label").asText()
                    + (model.path("kind").asText().equals("offline-demo") ? "; type help for the phrasings it knows" : ""));
        } catch (IOException | InterruptedException | RuntimeException e) {
            return java.util.Optional.empty();
        }
    }

    /** One user message and everything that follows from it: the turn, previews, input requests, resumed turns. */
    public void say(String text) {
        ObjectNode user = messages.addObject().put("id", "msg_" + UUID.randomUUID().toString().substring(0, 12)).put("role", "user");
        user.putArray("parts").addObject().put("type", "text").put("text", text);
        StreamedTurn turn = streamTurn(null);
        for (int resumes = 0; turn != null && resumes < 5; resumes++) {
            handlePreviews(turn);
            if (!answerInputRequests(turn)) {
                return;
            }
            turn = streamTurn(turn.assistantMessage());
        }
    }

    private StreamedTurn streamTurn(ObjectNode continuing) {
        StreamedTurn turn = new StreamedTurn(out, continuing);
        if (continuing == null) {
            messages.add(turn.assistantMessage());
        }
        ObjectNode context = Json.object().put("page", options.page());
        if (options.configId() != null && !configLoaded) {
            context.put("configId", options.configId()); // once: later turns continue on the conversation's draft
        }
        JsonNode newest = continuing != null ? continuing : messages.get(messages.size() - 2);
        ChatClient.Reply reply;
        try {
            reply = client.send(conversationId, newest, context, turn::accept);
        } catch (IOException | InterruptedException e) {
            out.println("  ! the chat could not be reached: " + e.getMessage());
            return null;
        }
        if (reply.refused()) {
            out.println("  ! the chat answered " + reply.status() + ": " + reply.refusal());
            if (continuing == null) {
                messages.remove(messages.size() - 1);
            }
            return null;
        }
        turn.end(reply.done());
        configLoaded = true;
        if (!turn.finished && turn.error == null) {
            out.println("  ! the stream ended without a finish");
        }
        return turn;
    }

    private void handlePreviews(StreamedTurn turn) {
        for (JsonNode preview : turn.previews) {
            out.println();
            out.println("Preview: " + preview.path("description").asText("(no description)")
                    + (preview.path("isUpdate").asBoolean(false) ? "  [update of " + preview.path("configId").asText() + "]" : "  [new table config]"));
            out.print(PreviewTable.render(preview));
            for (JsonNode w : preview.path("warnings")) {
                out.println("  warning: " + w.path("message").asText(w.asText()));
            }
            String previewId = preview.path("previewId").asText(null);
            if (previewId == null) {
                continue;
            }
            while (true) {
                String choice = terminal.readLine("Accept this preview? [a]ccept / [r]eject / [l]ater: ");
                if (choice == null) {
                    return;
                }
                choice = choice.strip().toLowerCase(Locale.ROOT);
                if (choice.startsWith("a") || choice.startsWith("r")) {
                    String action = choice.startsWith("a") ? "accept" : "reject";
                    HttpResponse<String> r = api(() -> client.decide(previewId, action.equals("accept")));
                    if (r == null) {
                        break;
                    }
                    if (r.statusCode() / 100 == 2) {
                        JsonNode answer = parseOrEmpty(r.body());
                        out.println(action.equals("accept")
                                ? "  accepted: config " + answer.path("config").path("configId").asText("?") + " is now at version "
                                  + answer.path("config").path("version").asText("?")
                                : "  rejected");
                    } else {
                        out.println("  ! " + action + " answered " + r.statusCode() + ": " + r.body());
                    }
                    break;
                }
                if (choice.startsWith("l")) {
                    break;
                }
            }
        }
    }

    /** Asks and submits each input request; true when the turn should resume. */
    private boolean answerInputRequests(StreamedTurn turn) {
        if (turn.inputRequests.isEmpty()) {
            return false;
        }
        boolean resume = false;
        for (JsonNode request : turn.inputRequests) {
            out.println();
            out.println(request.path("toolName").asText("A tool") + " needs your input: " + request.path("reason").asText(""));
            for (int attempt = 0; attempt < 3; attempt++) {
                Map<String, Object> values = askFields(request.path("fields"));
                if (values == null) {
                    return false;
                }
                HttpResponse<String> r = api(() -> client.answer(conversationId, request.path("toolCallId").asText(),
                        Json.MAPPER.valueToTree(values)));
                if (r == null) {
                    return false;
                }
                if (r.statusCode() / 100 == 2) {
                    out.println("  submitted" + (request.path("saveForSession").asBoolean(false) ? " (remembered for this conversation)" : ""));
                    resume = true;
                    break;
                }
                JsonNode error = parseOrEmpty(r.body()).path("error");
                out.println("  ! " + r.statusCode() + ": " + error.path("message").asText(r.body()));
                for (JsonNode f : error.path("fields")) {
                    out.println("    - " + f.path("field").asText() + ": " + f.path("message").asText());
                }
                if (r.statusCode() != 400) {
                    break;
                }
            }
        }
        return resume;
    }

    private Map<String, Object> askFields(JsonNode fields) {
        Map<String, Object> values = new LinkedHashMap<>();
        for (JsonNode field : fields) {
            JsonNode showWhen = field.path("showWhen");
            if (showWhen.isObject() && !String.valueOf(values.get(showWhen.path("field").asText())).equals(showWhen.path("equals").asText())) {
                continue;
            }
            String name = field.path("name").asText();
            String type = field.path("type").asText("text");
            StringBuilder prompt = new StringBuilder("  ").append(field.path("label").asText(name));
            if (field.hasNonNull("description")) {
                prompt.append(" (").append(field.get("description").asText()).append(")");
            }
            List<String> options = field.path("options").isArray()
                    ? Json.MAPPER.convertValue(field.get("options"), Json.MAPPER.getTypeFactory().constructCollectionType(List.class, String.class))
                    : List.of();
            if (!options.isEmpty()) {
                prompt.append(" [");
                for (int i = 0; i < options.size(); i++) {
                    prompt.append(i == 0 ? "" : ", ").append(i + 1).append(") ").append(options.get(i));
                }
                prompt.append("]");
            }
            if (type.equals("boolean")) {
                prompt.append(" [y/n]");
            }
            if (!field.path("required").asBoolean(false)) {
                prompt.append(" (optional)");
            }
            prompt.append(": ");
            String answer = type.equals("secret") ? terminal.readSecret(prompt.toString()) : terminal.readLine(prompt.toString());
            if (answer == null) {
                return null;
            }
            answer = answer.strip();
            if (answer.isEmpty()) {
                continue; // the server says when a required field is missing
            }
            if (!options.isEmpty() && answer.matches("\\d+") && Integer.parseInt(answer) >= 1 && Integer.parseInt(answer) <= options.size()) {
                answer = options.get(Integer.parseInt(answer) - 1);
            }
            values.put(name, switch (type) {
                case "boolean" -> answer.toLowerCase(Locale.ROOT).startsWith("y") || answer.equalsIgnoreCase("true");
                case "number" -> parseNumber(answer);
                default -> answer;
            });
        }
        return values;
    }

    private static Object parseNumber(String text) {
        try {
            return new java.math.BigDecimal(text);
        } catch (NumberFormatException e) {
            return text; // the server names the field
        }
    }

    /** A call of the HTTP API through the client: what could not reach the stack is said, and is null. */
    private HttpResponse<String> api(ApiCall call) {
        try {
            return call.send();
        } catch (IOException | InterruptedException e) {
            out.println("  ! " + options.apiUrl() + " could not be reached: " + e.getMessage());
            return null;
        }
    }

    @FunctionalInterface
    private interface ApiCall {
        HttpResponse<String> send() throws IOException, InterruptedException;
    }

    private static JsonNode parseOrEmpty(String body) {
        try {
            return Json.parse(body);
        } catch (RuntimeException | IOException e) {
            return Json.object();
        }
    }

    private static String stripSlash(String s) {
        return s.endsWith("/") ? s.substring(0, s.length() - 1) : s;
    }

    private static String newConversationId() {
        return "conv-" + UUID.randomUUID().toString().substring(0, 8);
    }

    public ArrayNode messages() {
        return messages;
    }

    public String conversationId() {
        return conversationId;
    }
}
