package dev.tablewright.editable;

import java.math.BigDecimal;
import java.util.List;

/**
 * The tables context's own settings as editable fields: a config's name, description and page size are changed
 * directly through {@code update_editable_status}, not through an operation tool. Its id is shown read-only.
 */
public final class TableSettingsFields {

    public static final String CONFIG_ID = "config_id";
    public static final String NAME = "name";
    public static final String DESCRIPTION = "description";
    public static final String PAGE_SIZE = "page_size";

    private TableSettingsFields() {
    }

    public static EditableStatus of(String configId, String name, String description, Integer pageSize) {
        return new EditableStatus(List.of(
                new EditableField(CONFIG_ID, "The config being edited.", EditableFieldType.STRING,
                        "set by the page", null, null, true, null, null, false, true, configId),
                new EditableField(NAME, "The table's title as users see it.", EditableFieldType.STRING,
                        "1 to 80 characters", null, null, false, null, BigDecimal.valueOf(80), false, false, name),
                new EditableField(DESCRIPTION, "One sentence on what the table shows.", EditableFieldType.STRING,
                        "at most 500 characters, may be cleared", null, List.of(NAME), false, null,
                        BigDecimal.valueOf(500), false, true, description),
                new EditableField(PAGE_SIZE, "Rows per page.", EditableFieldType.NUMBER,
                        "whole number between 1 and 500", null, null, false, BigDecimal.ONE,
                        BigDecimal.valueOf(500), true, false, pageSize == null ? null : pageSize.toString())));
    }
}
