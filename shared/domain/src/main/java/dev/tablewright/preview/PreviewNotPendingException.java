package dev.tablewright.preview;

/** The preview exists but can no longer be accepted or rejected: it is accepted, rejected or expired. */
public final class PreviewNotPendingException extends RuntimeException {
    private final String previewId;
    private final PreviewStatus status;

    public PreviewNotPendingException(String previewId, PreviewStatus status) {
        super("preview '" + previewId + "' is " + status.wireName() + ", not pending");
        this.previewId = previewId;
        this.status = status;
    }

    public String previewId() {
        return previewId;
    }

    public PreviewStatus status() {
        return status;
    }
}
