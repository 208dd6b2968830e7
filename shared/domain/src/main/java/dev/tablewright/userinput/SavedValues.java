package dev.tablewright.userinput;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** The values known for one conversation of one owner: the conversation's own first, then the user's. */
public record SavedValues(List<SavedValue> conversation, List<SavedValue> user) {

    public static final SavedValues NONE = new SavedValues(List.of(), List.of());

    public SavedValues {
        conversation = conversation == null ? List.of() : List.copyOf(conversation);
        user = user == null ? List.of() : List.copyOf(user);
    }

    public Optional<SavedValue> lookup(String name) {
        for (SavedValue v : conversation) {
            if (v.name().equals(name)) {
                return Optional.of(v);
            }
        }
        for (SavedValue v : user) {
            if (v.name().equals(name)) {
                return Optional.of(v);
            }
        }
        return Optional.empty();
    }

    /** name → value, conversation values over user values: the {@code sessionValues} of a tool invocation. */
    public Map<String, String> asSessionValues() {
        Map<String, String> out = new LinkedHashMap<>();
        user.forEach(v -> out.put(v.name(), v.value()));
        conversation.forEach(v -> out.put(v.name(), v.value()));
        return out;
    }

    /** Every value once, conversation values shadowing user values of the same name. */
    public List<SavedValue> effective() {
        Map<String, SavedValue> out = new LinkedHashMap<>();
        user.forEach(v -> out.put(v.name(), v));
        conversation.forEach(v -> out.put(v.name(), v));
        return List.copyOf(out.values());
    }
}
