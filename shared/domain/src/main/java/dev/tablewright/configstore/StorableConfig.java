package dev.tablewright.configstore;

import dev.tablewright.codec.ConfigJson;
import dev.tablewright.config.TableConfig;
import dev.tablewright.validation.ConfigValidator;
import dev.tablewright.validation.ValidationError;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * A config checked for storing: a usable name (optional, at most {@link #MAX_NAME_CHARS}), a body that fits
 * a DynamoDB item, and its id and version stamped by the store, never taken from the caller.
 */
public record StorableConfig(String name, String nameKey, String description, TableConfig config) {

    public static final int MAX_NAME_CHARS = ConfigValidator.MAX_NAME_CHARS;
    public static final int MAX_DESCRIPTION_CHARS = ConfigValidator.MAX_DESCRIPTION_CHARS;
    /** A DynamoDB item holds at most 400 KB; the body is stored twice per change (current + version), each in its own item. */
    public static final int MAX_BODY_BYTES = 300_000;

    private static final Pattern ID = Pattern.compile("[A-Za-z0-9_-]{1,64}");

    /** Checks {@code config} for storing; the stamped config carries {@code configId} and {@code version}. */
    public static StorableConfig of(TableConfig config, String configId, long version) {
        List<ValidationError> errors = new ArrayList<>();
        if (config == null) {
            throw new InvalidConfigException(List.of(new ValidationError("config", "is required")));
        }
        String name = config.name() == null || config.name().isBlank() ? null : config.name().strip();
        if (name != null && name.length() > MAX_NAME_CHARS) {
            errors.add(new ValidationError("config.name", "is longer than " + MAX_NAME_CHARS + " characters"));
        }
        if (config.description() != null && config.description().length() > MAX_DESCRIPTION_CHARS) {
            errors.add(new ValidationError("config.description", "is longer than " + MAX_DESCRIPTION_CHARS + " characters"));
        }
        TableConfig stamped = new TableConfig(configId, name, config.description(), version, config.dataSource(),
                config.visualSettings(), config.extra());
        if (errors.isEmpty() && ConfigJson.writeString(stamped).getBytes(StandardCharsets.UTF_8).length > MAX_BODY_BYTES) {
            errors.add(new ValidationError("config", "is larger than " + MAX_BODY_BYTES / 1000 + " KB"));
        }
        if (!errors.isEmpty()) {
            throw new InvalidConfigException(errors);
        }
        return new StorableConfig(name, name == null ? null : nameKey(name), config.description(), stamped);
    }

    /** Names compare without case and surrounding blanks: "Active orders" and " active ORDERS" are one name. */
    public static String nameKey(String name) {
        return name.strip().toLowerCase(Locale.ROOT);
    }

    /** Config ids are plain tokens ({@code cfg_...}); anything else cannot name a stored config. */
    public static boolean isPlausibleId(String id) {
        return id != null && ID.matcher(id).matches();
    }

    public String body() {
        return ConfigJson.writeString(config);
    }
}
