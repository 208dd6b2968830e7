package dev.tablewright.configstore;

import dev.tablewright.config.TableConfig;

import java.time.Instant;
import java.util.Optional;

/**
 * Saved table configs and every version of each (DynamoDB table {@code ConfigsTable}; adapter
 * {@code dev.tablewright.dynamodb.DynamoConfigStore}). Everything is per owner: another owner's config is
 * absent, exactly as if it did not exist.
 *
 * <p>Every change writes a new version and keeps the old ones; a change names the version it builds on and
 * fails with {@link VersionConflictException} if another change landed first. Nothing is ever overwritten.
 *
 * <p>Failures: {@link ConfigNotFoundException}, {@link VersionConflictException}, {@link ConfigNameTakenException},
 * {@link InvalidConfigException}, {@link dev.tablewright.store.StoreUnavailableException} (the store could not be reached or is
 * throttling after the SDK's retries; nothing was written).
 */
public interface ConfigStore {

    /** The current version of a config. */
    Optional<StoredConfig> get(String ownerId, String configId);

    /** The current version of the owner's config with this name (names are unique per owner, case-insensitively). */
    Optional<StoredConfig> getByName(String ownerId, String name);

    /** The owner's configs, by name, a page at a time ({@code cursor} from the previous page, null for the first). */
    Page<ConfigSummary> list(String ownerId, int limit, String cursor);

    /** The versions of a config, newest first, without their config bodies. Empty page if the config does not exist. */
    Page<ConfigVersion> versions(String ownerId, String configId, int limit, String cursor);

    /** One version of a config, with its body. */
    Optional<ConfigVersion> version(String ownerId, String configId, long version);

    /** Creates a config at version 1 with a fresh id; the config's own id and version fields are ignored. */
    StoredConfig create(String ownerId, TableConfig config, Instant now);

    /** Writes {@code config} as version {@code baseVersion + 1}, only if the config is still at {@code baseVersion}. */
    StoredConfig update(String ownerId, String configId, long baseVersion, TableConfig config, Instant now);

    /**
     * {@link #create}, once for the request {@code requestKey} (a tool call's key, recorded on version 1): when the
     * same request created the config already (the call run twice), its first answer is given again instead of
     * {@link ConfigNameTakenException}.
     */
    StoredConfig create(String ownerId, TableConfig config, Instant now, String requestKey);

    /**
     * {@link #update}, once for the request {@code requestKey} (recorded on the new version): when the same request
     * wrote version {@code baseVersion + 1} already, that version is answered instead of {@link VersionConflictException}.
     */
    StoredConfig update(String ownerId, String configId, long baseVersion, TableConfig config, Instant now, String requestKey);

    /** Writes version {@code fromVersion}'s config as a new version, only if the config is still at {@code baseVersion}. */
    StoredConfig restore(String ownerId, String configId, long baseVersion, long fromVersion, Instant now);
}
