package dev.tablewright.preview;

import dev.tablewright.failure.DomainFailure;
import dev.tablewright.failure.ErrorCode;

/** The preview exists but can no longer be accepted or rejected: it is accepted, rejected or expired. */
public final class PreviewNotPendingException extends DomainFailure {
    private final String previewId;
    private final PreviewStatus status;

    public PreviewNotPendingException(String previewId, PreviewStatus status) {
        super(Kind.CONFLICT, ErrorCode.PREVIEW_NOT_PENDING, "preview '" + previewId + "' is " + status.wireName() + ", not pending");
        this.previewId = previewId;
        this.status = status;
    }

    public String previewId() {
        return previewId;
    }

    public PreviewStatus status() {
        return status;
    }

    @Override
    public java.util.Map<String, Object> details() {
        return java.util.Map.of("currentStatus", status.wireName());
    }
}
