package dev.tablewright.functions.configs;

import dev.tablewright.lambda.HttpRequest;
import dev.tablewright.lambda.HttpResponse;
import dev.tablewright.preview.PreviewNotFoundException;

/** {@code GET /previews/{previewId}}: a preview and its status (so a reloaded page can show its card again). */
public final class GetPreviewFunction extends ConfigApiFunction {
    public GetPreviewFunction() {
        super(ConfigServices.fromEnvironment());
    }

    public GetPreviewFunction(ConfigServices services) {
        super(services);
    }

    @Override
    protected HttpResponse serve(HttpRequest request, String ownerId) {
        String previewId = request.pathId("previewId");
        return HttpResponse.ok(ApiViews.preview(services.previews().find(ownerId, previewId)
                .orElseThrow(() -> new PreviewNotFoundException(previewId)), services.clock().instant()));
    }
}
