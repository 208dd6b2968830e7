package dev.tablewright.editable;


/** What {@code update_editable_status} answers: success, or the reason it was refused. */
public record EditableFieldUpdate(boolean success, String error, String updatedField, String previousValue,
                                  String newValue) {

    public static EditableFieldUpdate refused(String field, String error, String currentValue) {
        return new EditableFieldUpdate(false, error, field, currentValue, currentValue);
    }

    public static EditableFieldUpdate applied(String field, String previousValue, String newValue) {
        return new EditableFieldUpdate(true, null, field, previousValue, newValue);
    }
}
