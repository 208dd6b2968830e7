package dev.tablewright.systemtest.runtime;

import com.fasterxml.jackson.databind.JsonNode;
import dev.tablewright.lambda.streaming.StreamingHandler;
import dev.tablewright.http.stream.HttpResponseStream;
import dev.tablewright.aisdk.stream.UiMessageStreamWriter;
import dev.tablewright.lambda.Priming;

/**
 * A chat handler (test-only, run in a side jar) whose SnapStart hooks say when they run: "before" and "after" lines
 * on stdout; with {@code FAIL_AFTER_RESTORE=true} its hook after the restore fails. Each turn answers the order
 * the hooks ran in.
 */
public class SnapStartHooksTurn implements StreamingHandler {

    private static final StringBuffer ORDER = new StringBuffer();

    public SnapStartHooksTurn() {
        Priming.register("hooks-test", () -> {
            ORDER.append("before;");
            System.out.println("HOOK before-snapshot");
        }, () -> {
            ORDER.append("after;");
            System.out.println("HOOK after-restore");
            if (Boolean.parseBoolean(System.getenv("FAIL_AFTER_RESTORE"))) {
                throw new IllegalStateException("cannot renew after the restore");
            }
        });
    }

    @Override
    public void handle(JsonNode event, HttpResponseStream response) {
        UiMessageStreamWriter ui = new UiMessageStreamWriter(response);
        ui.start("msg_hooks");
        ui.textStart("t1");
        ui.textDelta("t1", ORDER.toString());
        ui.textEnd("t1");
        ui.finish();
        ui.done();
    }
}
