package dev.tablewright.preview;

import dev.tablewright.id.IdGenerator;
import com.fasterxml.jackson.databind.JsonNode;
import dev.tablewright.config.TableConfig;

import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Objects;

/**
 * A config the assistant proposed and the user has not yet accepted or rejected.
 * Not a wire type (the mapper has no java.time support): API answers and stream parts build their own views.
 * Accepting it applies {@code config} as the next version of config {@code configId}, but only while that
 * config is still at {@code baseVersion}.
 *
 * @param previewId      {@code prv_...}, made by {@link #create}
 * @param ownerId        the user the preview belongs to; nobody else can see, accept or reject it
 * @param conversationId the chat conversation that produced it (may be null when made outside a chat)
 * @param configId       the config it changes; null on the create path (accepting creates the config)
 * @param baseVersion    the version of {@code configId} it was computed from; null on the create path
 * @param description    what the change does, in the user's terms
 * @param config         the proposed config
 * @param summary        what the preview showed (diff, SQL, plan, sample, warnings), opaque here; may be null
 * @param status         as stored: pending, accepted or rejected (see {@link #statusAt} for expiry)
 * @param createdAt      when it was made
 * @param expiresAt      after this it can no longer be accepted (and DynamoDB's TTL removes it)
 */
public record PendingPreview(String previewId, String ownerId, String conversationId, String configId,
                             Long baseVersion, String description, TableConfig config, JsonNode summary,
                             PreviewStatus status, Instant createdAt, Instant expiresAt) {

    /** How long a preview stays acceptable unless the caller says otherwise. */
    public static final Duration DEFAULT_TTL = Duration.ofHours(24);

    public PendingPreview {
        Objects.requireNonNull(previewId, "previewId");
        Objects.requireNonNull(ownerId, "ownerId");
        Objects.requireNonNull(config, "config");
        Objects.requireNonNull(status, "status");
        Objects.requireNonNull(createdAt, "createdAt");
        Objects.requireNonNull(expiresAt, "expiresAt");
        if ((configId == null) != (baseVersion == null)) {
            throw new IllegalArgumentException("configId and baseVersion are both set (update) or both null (create)");
        }
        if (status == PreviewStatus.EXPIRED) {
            throw new IllegalArgumentException("expired is derived from expiresAt, never stored");
        }
    }

    /** Preview ids: {@code prv_} and 128 random bits. */
    public static final IdGenerator IDS = IdGenerator.random("prv");

    /**
     * A new pending preview with a fresh id from {@link #IDS}. {@code configId}/{@code baseVersion} null means the
     * create path.
     */
    public static PendingPreview create(String ownerId, String conversationId, String configId, Long baseVersion,
                                        String description, TableConfig config, JsonNode summary,
                                        Instant now, Duration ttl) {
        return create(IDS, ownerId, conversationId, configId, baseVersion, description, config, summary, now, ttl);
    }

    /** A new pending preview with an id from {@code ids}. */
    public static PendingPreview create(IdGenerator ids, String ownerId, String conversationId, String configId, Long baseVersion,
                                        String description, TableConfig config, JsonNode summary,
                                        Instant now, Duration ttl) {
        Instant created = now.truncatedTo(ChronoUnit.MILLIS); // stores keep milliseconds
        return new PendingPreview(ids.next(created), ownerId, conversationId,
                configId, baseVersion, description, config, summary, PreviewStatus.PENDING, created, created.plus(ttl));
    }

    /** True when accepting creates a new config rather than a new version of an existing one. */
    public boolean createsConfig() {
        return configId == null;
    }

    /** The status as the user sees it at {@code now}: a pending preview past its expiry reads as expired. */
    public PreviewStatus statusAt(Instant now) {
        return status == PreviewStatus.PENDING && !now.isBefore(expiresAt) ? PreviewStatus.EXPIRED : status;
    }

    public PendingPreview withStatus(PreviewStatus newStatus) {
        return new PendingPreview(previewId, ownerId, conversationId, configId, baseVersion, description, config,
                summary, newStatus, createdAt, expiresAt);
    }
}
