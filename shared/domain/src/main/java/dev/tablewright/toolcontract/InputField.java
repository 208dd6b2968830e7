package dev.tablewright.toolcontract;


import java.math.BigDecimal;
import java.util.List;

/** One field of a user-input form, as declared by a tool and as sent to the client. */
public record InputField(String name, String label, String description, FieldType type, Boolean required,
                         String validation, BigDecimal min, BigDecimal max, String placeholder,
                         List<String> options, ShowWhen showWhen) {

    public boolean isRequired() {
        return Boolean.TRUE.equals(required);
    }
}
