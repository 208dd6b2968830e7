package dev.tablewright.functions.configs;

import dev.tablewright.lambda.HttpRequest;
import dev.tablewright.lambda.HttpResponse;

import java.time.Instant;

/** {@code POST /previews/{previewId}/reject}: discards a pending preview; the config is untouched. */
public final class RejectPreviewFunction extends ConfigApiFunction {
    public RejectPreviewFunction() {
        super(ConfigServices.fromEnvironment());
    }

    public RejectPreviewFunction(ConfigServices services) {
        super(services);
    }

    @Override
    protected HttpResponse serve(HttpRequest request, String ownerId) {
        String previewId = request.pathId("previewId");
        Instant now = services.clock().instant();
        return HttpResponse.ok(ApiViews.preview(services.decisions().reject(ownerId, previewId, now), now));
    }
}
