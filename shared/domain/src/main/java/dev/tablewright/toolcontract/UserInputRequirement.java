package dev.tablewright.toolcontract;


import java.util.List;

/**
 * A tool's {@code requiresUserInput}: why, which fields, and whether the answers are saved
 * ({@code saveForSession}) and for how long ({@code scope}, default the conversation).
 */
public record UserInputRequirement(String reason, List<InputField> fields, boolean saveForSession, ValueScope scope) {
    public UserInputRequirement {
        fields = fields == null ? List.of() : List.copyOf(fields);
        scope = scope == null ? ValueScope.CONVERSATION : scope;
    }
}
