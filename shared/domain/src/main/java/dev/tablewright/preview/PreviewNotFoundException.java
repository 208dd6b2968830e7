package dev.tablewright.preview;

/** No such preview for this owner (another owner's preview is reported the same way). */
public final class PreviewNotFoundException extends RuntimeException {
    private final String previewId;

    public PreviewNotFoundException(String previewId) {
        super("preview '" + previewId + "' not found");
        this.previewId = previewId;
    }

    public String previewId() {
        return previewId;
    }
}
