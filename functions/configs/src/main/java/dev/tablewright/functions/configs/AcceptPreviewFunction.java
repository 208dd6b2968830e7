package dev.tablewright.functions.configs;

import dev.tablewright.configstore.StoredConfigJson;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tablewright.json.Json;
import dev.tablewright.lambda.HttpRequest;
import dev.tablewright.lambda.HttpResponse;
import dev.tablewright.logging.StructuredLog;
import dev.tablewright.preview.PreviewDecisions;

import java.time.Instant;

/**
 * {@code POST /previews/{previewId}/accept}: applies the preview's config as the next version of its config, or
 * creates the config (201) on the create path. Once only; only while the config is still at the preview's base
 * version (else 409 {@code version_conflict}: preview again); never an expired, rejected or another owner's preview.
 */
public final class AcceptPreviewFunction extends ConfigApiFunction {

    private static final StructuredLog LOG = StructuredLog.of(AcceptPreviewFunction.class);

    public AcceptPreviewFunction() {
        super(ConfigServices.fromEnvironment());
    }

    public AcceptPreviewFunction(ConfigServices services) {
        super(services);
    }

    @Override
    protected HttpResponse serve(HttpRequest request, String ownerId) {
        String previewId = request.pathId("previewId");
        Instant now = services.clock().instant();
        PreviewDecisions.Accepted accepted = services.decisions().accept(ownerId, previewId, now);
        LOG.info("preview accepted", "previewId", previewId, "configId", accepted.config().configId(),
                "version", accepted.config().version(), "created", accepted.created());
        ObjectNode out = Json.object();
        out.set("preview", ApiViews.preview(accepted.preview(), now));
        out.set("config", StoredConfigJson.config(accepted.config()));
        return accepted.created() ? HttpResponse.created(out) : HttpResponse.ok(out);
    }

    @Override
    protected String conflictAdvice() {
        return "; preview the change again on the current version";
    }
}
