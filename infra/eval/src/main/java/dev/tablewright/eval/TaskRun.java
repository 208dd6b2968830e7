package dev.tablewright.eval;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tablewright.json.Json;
import dev.tablewright.localstack.chat.ChatClient;

import java.io.IOException;
import java.net.http.HttpResponse;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * One run of one task, as a user who agrees with every preview would hold the conversation: a user and a stored
 * conversation of its own, each turn sent over the chat function URL, a question of a tool answered from the task
 * (which database), every preview the turn made accepted through {@code POST /previews/{id}/accept}, and after the last
 * turn the final saved config read through {@code /configs} and graded ({@link #grade}).
 */
final class TaskRun {

    /** Responses of one user turn: the first and those resumed after answering a question. */
    private static final int MAX_RESPONSES_PER_TURN = 5;

    private final EvalStack stack;
    private final EvalTask task;
    private final int run;
    private final ChatClient client;
    private final String conversationId;

    private final List<RunRecord.Turn> turns = new ArrayList<>();
    private final List<String> notes = new ArrayList<>();
    private final List<String> previewsMade = new ArrayList<>();
    private int accepted;
    private String lastText = "";

    /** @param batch distinguishes this harness run's users and conversations from any earlier one's */
    TaskRun(EvalStack stack, EvalTask task, int run, String batch) {
        this.stack = stack;
        this.task = task;
        this.run = run;
        String id = batch + "-" + task.id() + "-" + run;
        this.client = stack.clientFor("eval-" + id);
        this.conversationId = "eval-" + id;
    }

    RunRecord execute() {
        long started = System.nanoTime();
        String failure;
        try {
            failure = converse();
        } catch (IOException | RuntimeException e) {
            failure = "exception: " + e;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            failure = "interrupted";
        }
        double seconds = (System.nanoTime() - started) / 1e9;
        SavedConfig saved = null;
        String readFailure = null;
        try {
            saved = finalSavedConfig();
        } catch (IOException | RuntimeException e) {
            readFailure = "the saved configs could not be read: " + e;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            readFailure = "interrupted";
        }
        if (saved != null && saved.count() > 1) {
            notes.add(saved.count() + " configs were saved; the latest, " + saved.id() + ", is graded");
        }
        Verdict verdict = failure != null ? Verdict.fail(failure)
                : readFailure != null ? Verdict.fail(readFailure)
                : grade(saved);
        int steps = 0;
        int calls = 0;
        int failed = 0;
        long input = 0;
        long output = 0;
        for (RunRecord.Turn t : turns) {
            steps += t.modelSteps();
            calls += t.toolCalls();
            failed += t.failedToolCalls();
            input += t.inputTokens();
            output += t.outputTokens();
        }
        return new RunRecord(task.id(), run, verdict.passed(), verdict.reason(), steps, calls, failed, input, output,
                seconds, conversationId, saved == null ? null : saved.id(), saved == null ? null : saved.config(), turns, notes);
    }

    /** Holds the conversation; the reason it failed, or null when every turn ended well. */
    private String converse() throws IOException, InterruptedException {
        for (int i = 0; i < task.turns().size(); i++) {
            String failure = turn(i);
            if (failure != null) {
                return "turn " + (i + 1) + ": " + failure;
            }
        }
        return null;
    }

    private String turn(int index) throws IOException, InterruptedException {
        ObjectNode said = Json.object().put("id", "u" + (index + 1)).put("role", "user");
        said.putArray("parts").addObject().put("type", "text").put("text", task.turns().get(index));
        JsonNode message = said;

        int steps = 0;
        long input = 0;
        long output = 0;
        Set<String> calls = new LinkedHashSet<>();
        Set<String> failed = new LinkedHashSet<>();
        List<String> previews = new ArrayList<>();
        StringBuilder text = new StringBuilder();
        String finish = null;
        String failure = null;
        for (int response = 0; response < MAX_RESPONSES_PER_TURN; response++) {
            List<JsonNode> parts = new ArrayList<>();
            ChatClient.Reply reply = client.send(conversationId, message, Json.object().put("page", "tables"), parts::add);
            if (reply.refused()) {
                failure = "the chat answered " + reply.status() + ": " + clip(reply.refusal());
                break;
            }
            TurnStream stream = TurnStream.of(parts);
            steps += stream.modelSteps();
            input += stream.inputTokens();
            output += stream.outputTokens();
            calls.addAll(stream.toolCalls());
            failed.addAll(stream.failedToolCalls());
            stream.previewIds().stream().filter(p -> !previews.contains(p)).forEach(previews::add);
            text.append(stream.text());
            finish = stream.finishReason();
            failure = stream.failure();
            if (failure != null || !"tool-calls".equals(finish)) {
                break;
            }
            failure = answer(stream.inputRequests());
            if (failure != null) {
                break;
            }
            message = resumeMessage();
            if (response == MAX_RESPONSES_PER_TURN - 1) {
                failure = "the turn still asked after " + MAX_RESPONSES_PER_TURN + " answers";
            }
        }
        turns.add(new RunRecord.Turn(finish, steps, calls.size(), failed.size(), input, output, previews.size()));
        lastText = text.toString();
        previewsMade.addAll(previews);
        if (failure != null) {
            return failure;
        }
        for (String previewId : previews) {
            accept(previewId);
        }
        return null;
    }

    /** Answers each question of the turn from the task; the reason it cannot, or null. */
    private String answer(List<JsonNode> requests) throws IOException, InterruptedException {
        if (requests.isEmpty()) {
            return "the turn paused for a tool the client must run (finish: tool-calls), and this client runs none";
        }
        for (JsonNode request : requests) {
            Map<String, Object> values = new LinkedHashMap<>();
            List<String> unanswered = new ArrayList<>();
            for (JsonNode field : request.path("fields")) {
                String name = field.path("name").asText();
                if (name.equals("database") && task.database() != null) {
                    values.put(name, task.database());
                } else if (field.path("required").asBoolean(false)) {
                    unanswered.add(name);
                }
            }
            if (!unanswered.isEmpty()) {
                return request.path("toolName").asText("a tool") + " asked for " + String.join(", ", unanswered)
                        + ", which the task does not answer";
            }
            HttpResponse<String> r = client.answer(conversationId, request.path("toolCallId").asText(), Json.MAPPER.valueToTree(values));
            if (r.statusCode() / 100 != 2) {
                return "answering " + request.path("toolName").asText("a tool") + " was refused: " + r.statusCode() + " " + clip(r.body());
            }
        }
        return null;
    }

    /** The next message after answering: the stored assistant message with its paused call, as the persistence form resumes. */
    private JsonNode resumeMessage() throws IOException, InterruptedException {
        HttpResponse<String> r = client.api("GET", "/conversations/" + ChatClient.encode(conversationId), null);
        if (r.statusCode() != 200) {
            throw new IOException("the conversation could not be read to resume it: " + r.statusCode() + " " + clip(r.body()));
        }
        JsonNode messages = Json.parse(r.body()).path("messages");
        return messages.get(messages.size() - 1);
    }

    private void accept(String previewId) throws IOException, InterruptedException {
        HttpResponse<String> r = client.decide(previewId, true);
        if (r.statusCode() / 100 == 2) {
            accepted++;
        } else {
            notes.add("preview " + previewId + " was not accepted: " + r.statusCode() + " " + clip(r.body()));
        }
    }

    /** A saved config of the run's user: its id and its config as stored. */
    record SavedConfig(String id, String name, JsonNode config, int count) {
    }

    /** The run's user's most recently saved config (the user has no other), or null when nothing was saved. */
    private SavedConfig finalSavedConfig() throws IOException, InterruptedException {
        HttpResponse<String> list = client.api("GET", "/configs?limit=100", null);
        if (list.statusCode() != 200) {
            throw new IOException("GET /configs answered " + list.statusCode() + ": " + clip(list.body()));
        }
        JsonNode configs = Json.parse(list.body()).path("configs");
        JsonNode latest = null;
        for (JsonNode c : configs) {
            if (latest == null || Instant.parse(c.path("updatedAt").asText()).isAfter(Instant.parse(latest.path("updatedAt").asText()))) {
                latest = c;
            }
        }
        if (latest == null) {
            return null;
        }
        String id = latest.path("configId").asText();
        HttpResponse<String> one = client.api("GET", "/configs/" + ChatClient.encode(id), null);
        if (one.statusCode() != 200) {
            throw new IOException("GET /configs/" + id + " answered " + one.statusCode() + ": " + clip(one.body()));
        }
        return new SavedConfig(id, latest.path("name").asText(""), Json.parse(one.body()).path("config"), configs.size());
    }

    record Verdict(boolean passed, String reason) {
        static Verdict fail(String reason) {
            return new Verdict(false, reason);
        }
    }

    /** The final state against the task's expectation. */
    private Verdict grade(SavedConfig saved) {
        return switch (task.expect()) {
            case EvalTask.Refusal r -> {
                if (saved != null) {
                    yield Verdict.fail("a table was built for a request to refuse: config " + saved.id()
                            + (saved.name().isEmpty() ? "" : " '" + saved.name() + "'") + " was saved");
                }
                yield lastText.isBlank() ? Verdict.fail("no table, but no text answer either")
                        : new Verdict(true, "no table saved; answered in text");
            }
            case EvalTask.ResultSet expected -> {
                if (saved == null) {
                    yield Verdict.fail("no table was saved (" + (previewsMade.isEmpty() ? "no preview was made"
                            : previewsMade.size() + " preview" + (previewsMade.size() == 1 ? "" : "s") + " made, " + accepted + " accepted") + ")");
                }
                yield compare(expected, saved);
            }
        };
    }

    private Verdict compare(EvalTask.ResultSet expected, SavedConfig saved) {
        GradingDatabase db = stack.database(task);
        ResultTable golden;
        try {
            golden = db.golden(expected.sql());
        } catch (java.sql.SQLException e) {
            return Verdict.fail("the golden query failed on " + db.name() + ": " + e.getMessage());
        }
        GradingDatabase.SavedRows actual;
        try {
            actual = db.saved(saved.config());
        } catch (GradingDatabase.NotRunnable e) {
            return Verdict.fail(e.getMessage());
        } catch (java.sql.SQLException | RuntimeException e) {
            return Verdict.fail("the saved config could not be run: " + e.getMessage());
        }
        String difference = ResultComparison.difference(golden, actual.table(), expected.ordered(), expected.orderKey());
        if (difference != null) {
            return Verdict.fail(difference);
        }
        for (Map.Entry<Integer, String> h : expected.headers().entrySet()) {
            int at = h.getKey() - 1;
            String shown = at < actual.headers().size() ? actual.headers().get(at) : null;
            if (shown == null || !shown.strip().equalsIgnoreCase(h.getValue())) {
                return Verdict.fail("header: column " + h.getKey() + " is headed " + (shown == null ? "nothing" : "'" + shown + "'")
                        + ", the task wants '" + h.getValue() + "'");
            }
        }
        return new Verdict(true, golden.rows().size() + " row" + (golden.rows().size() == 1 ? "" : "s") + " × "
                + golden.columns().size() + " column" + (golden.columns().size() == 1 ? "" : "s") + " as the golden query"
                + (expected.ordered() ? ", in order" : "") + (expected.headers().isEmpty() ? "" : ", headed as asked"));
    }

    private static String clip(String s) {
        String one = s == null ? "" : s.replaceAll("\\s+", " ").strip();
        return one.length() > 300 ? one.substring(0, 300) + "…" : one;
    }
}
