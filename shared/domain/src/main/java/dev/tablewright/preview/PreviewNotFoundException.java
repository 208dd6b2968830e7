package dev.tablewright.preview;

import dev.tablewright.failure.DomainFailure;
import dev.tablewright.failure.ErrorCode;

/** No such preview for this owner (another owner's preview is reported the same way). */
public final class PreviewNotFoundException extends DomainFailure {
    private final String previewId;

    public PreviewNotFoundException(String previewId) {
        super(Kind.NOT_FOUND, ErrorCode.NOT_FOUND, "preview '" + previewId + "' not found");
        this.previewId = previewId;
    }

    public String previewId() {
        return previewId;
    }
}
