package dev.tablewright.userinput;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.tablewright.tool.ValueScope;


/** A saved value as every API answer shows it: a secret's value is always {@link InputRequestView#MASK}. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record SavedValueView(String name, String value, boolean secret, ValueScope scope, String toolName,
                             String savedAt, String expiresAt) {

    public static SavedValueView of(SavedValue v) {
        return new SavedValueView(v.name(), v.secret() ? InputRequestView.MASK : v.value(), v.secret(), v.scope(),
                v.toolName(), InputRequestView.text(v.savedAt()), InputRequestView.text(v.expiresAt()));
    }
}
