package dev.tablewright.dynamodb;

import dev.tablewright.id.IdGenerator;
import dev.tablewright.codec.ConfigJson;
import dev.tablewright.config.TableConfig;
import dev.tablewright.configstore.ChangeKind;
import dev.tablewright.configstore.ConfigNameTakenException;
import dev.tablewright.configstore.ConfigNotFoundException;
import dev.tablewright.configstore.ConfigStore;
import dev.tablewright.configstore.ConfigSummary;
import dev.tablewright.configstore.ConfigVersion;
import dev.tablewright.configstore.Page;
import dev.tablewright.configstore.StorableConfig;
import dev.tablewright.store.StoreUnavailableException;
import dev.tablewright.configstore.StoredConfig;
import dev.tablewright.configstore.VersionConflictException;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.CancellationReason;
import software.amazon.awssdk.services.dynamodb.model.Delete;
import software.amazon.awssdk.services.dynamodb.model.GetItemRequest;
import software.amazon.awssdk.services.dynamodb.model.Put;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;
import software.amazon.awssdk.services.dynamodb.model.QueryResponse;
import software.amazon.awssdk.services.dynamodb.model.ReturnValuesOnConditionCheckFailure;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItem;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItemsRequest;
import software.amazon.awssdk.services.dynamodb.model.TransactionCanceledException;
import software.amazon.awssdk.services.dynamodb.model.Update;

import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;

import static dev.tablewright.dynamodb.Attributes.n;
import static dev.tablewright.dynamodb.Attributes.s;

/**
 * {@link ConfigStore} on DynamoDB. One table ({@code ConfigsTable}, env {@code CONFIGS_TABLE}), one partition per
 * owner ({@code pk = OWNER#<ownerId>}), so every read is owner-scoped by its key:
 * <ul>
 *   <li>{@code sk = CONFIG#<configId>}: the current version (body included, so a get is one read);</li>
 *   <li>{@code sk = VERSION#<configId>#<version, 10 digits>}: every version ever written, never changed again;</li>
 *   <li>{@code sk = NAME#<name key>}: the name claim that keeps names unique per owner and serves get-by-name.</li>
 * </ul>
 * A change is one transaction: the current item moves from version n to n+1 on condition it is still at n, the
 * version item n+1 is put on condition it does not exist, name claims move with a rename, and (for an accepted
 * preview, {@link DynamoPreviewAcceptance}) the {@link LinkedWrite} it carries: the preview moves from pending to accepted on
 * condition it is still pending.
 * Either all of it is written or none.
 */
public final class DynamoConfigStore implements ConfigStore {

    private static final String CONFIG = "CONFIG#";
    private static final String VERSION = "VERSION#";
    private static final String NAME = "NAME#";
    /** Transactions cancelled only because another transaction held an item are retried this often. */
    private static final int ATTEMPTS = 4;
    /** A listing's cursor: the sort key it stopped at ({@link QueryCursor}). */
    private static final List<String> CURSOR = List.of("sk");

    private final DynamoDbClient dynamo;
    private final String table;
    private final IdGenerator ids;

    /** Config ids {@code cfg_<time><random>}: listings come in creation order. */
    public DynamoConfigStore(DynamoDbClient dynamo, String configsTable) {
        this(dynamo, configsTable, IdGenerator.timeOrdered("cfg"));
    }

    public DynamoConfigStore(DynamoDbClient dynamo, String configsTable, IdGenerator ids) {
        this.dynamo = dynamo;
        this.table = configsTable;
        this.ids = ids;
    }

    // ---- reads ----

    @Override
    public Optional<StoredConfig> get(String ownerId, String configId) {
        if (!StorableConfig.isPlausibleId(configId)) {
            return Optional.empty();
        }
        return head(ownerId, configId).map(DynamoConfigStore::stored);
    }

    @Override
    public Optional<StoredConfig> getByName(String ownerId, String name) {
        if (name == null || name.isBlank()) {
            return Optional.empty();
        }
        Map<String, AttributeValue> claim = getItem(ownerId, NAME + StorableConfig.nameKey(name));
        return claim == null ? Optional.empty() : get(ownerId, Attributes.string(claim, "configId"));
    }

    @Override
    public Page<ConfigSummary> list(String ownerId, int limit, String cursor) {
        QueryResponse response = query(ownerId, CONFIG, limit, cursor, true,
                "configId, #name, description, #version, updatedAt");
        List<ConfigSummary> items = response.items().stream()
                .map(i -> new ConfigSummary(Attributes.string(i, "configId"), Attributes.string(i, "name"),
                        Attributes.string(i, "description"), Attributes.number(i, "version"),
                        Attributes.instant(i, "updatedAt")))
                .toList();
        return new Page<>(items, QueryCursor.next(response, CURSOR));
    }

    @Override
    public Page<ConfigVersion> versions(String ownerId, String configId, int limit, String cursor) {
        if (!StorableConfig.isPlausibleId(configId)) {
            return new Page<>(List.of(), null);
        }
        QueryResponse response = query(ownerId, VERSION + configId + "#", limit, cursor, false,
                "configId, #version, #name, change, previewId, restoredFrom, createdAt");
        return new Page<>(response.items().stream().map(i -> version(i, false)).toList(), QueryCursor.next(response, CURSOR));
    }

    @Override
    public Optional<ConfigVersion> version(String ownerId, String configId, long version) {
        if (!StorableConfig.isPlausibleId(configId) || version < 1) {
            return Optional.empty();
        }
        Map<String, AttributeValue> item = getItem(ownerId, versionKey(configId, version));
        return item == null ? Optional.empty() : Optional.of(version(item, true));
    }

    // ---- writes ----

    @Override
    public StoredConfig create(String ownerId, TableConfig config, Instant now) {
        return createConfig(ownerId, config, now, null);
    }

    @Override
    public StoredConfig update(String ownerId, String configId, long baseVersion, TableConfig config, Instant now) {
        return change(ownerId, configId, baseVersion, config, now, ChangeKind.UPDATE, null, null);
    }

    @Override
    public StoredConfig create(String ownerId, TableConfig config, Instant now, String requestKey) {
        try {
            return createConfig(ownerId, config, now, null, requestKey);
        } catch (ConfigNameTakenException taken) {
            // the name's holder, if this same request created it: its version 1 records the request
            return getByName(ownerId, config.name())
                    .flatMap(holder -> madeBy(ownerId, holder.configId(), 1, requestKey, holder.createdAt()))
                    .orElseThrow(() -> taken);
        }
    }

    @Override
    public StoredConfig update(String ownerId, String configId, long baseVersion, TableConfig config, Instant now,
                               String requestKey) {
        try {
            return change(ownerId, configId, baseVersion, config, now, ChangeKind.UPDATE, null, null, requestKey);
        } catch (VersionConflictException conflict) {
            Optional<StoredConfig> own = head(ownerId, configId)
                    .flatMap(current -> madeBy(ownerId, configId, baseVersion + 1, requestKey, Attributes.instant(current, "createdAt")));
            return own.orElseThrow(() -> conflict);
        }
    }

    /** Version {@code version} of the config as it was answered, when the request {@code requestKey} wrote it. */
    private Optional<StoredConfig> madeBy(String ownerId, String configId, long version, String requestKey, Instant createdAt) {
        Map<String, AttributeValue> item = requestKey == null ? null : getItem(ownerId, versionKey(configId, version));
        if (item == null || !requestKey.equals(Attributes.string(item, "requestKey"))) {
            return Optional.empty();
        }
        return Optional.of(new StoredConfig(configId, ownerId, Attributes.string(item, "name"), version, body(item),
                createdAt, Attributes.instant(item, "createdAt")));
    }

    @Override
    public StoredConfig restore(String ownerId, String configId, long baseVersion, long fromVersion, Instant now) {
        ConfigVersion from = version(ownerId, configId, fromVersion)
                .orElseThrow(() -> get(ownerId, configId).isPresent()
                        ? ConfigNotFoundException.version(configId, fromVersion)
                        : ConfigNotFoundException.config(configId));
        return change(ownerId, configId, baseVersion, from.config(), now, ChangeKind.RESTORE, null, fromVersion);
    }

    StoredConfig createConfig(String ownerId, TableConfig config, Instant now, LinkedWrite linked) {
        return createConfig(ownerId, config, now, linked, null);
    }

    private StoredConfig createConfig(String ownerId, TableConfig config, Instant now, LinkedWrite linked, String requestKey) {
        ChangeKind kind = linked == null ? ChangeKind.CREATE : linked.kind();
        for (int attempt = 1; ; attempt++) {
            String configId = ids.next(now);
            StorableConfig storable = StorableConfig.of(config, configId, 1);
            List<Role> roles = new ArrayList<>();
            List<TransactWriteItem> items = new ArrayList<>();
            add(items, roles, Role.CURRENT, TransactWriteItem.builder().put(Put.builder().tableName(table)
                    .item(headItem(ownerId, configId, storable, now, now))
                    .conditionExpression("attribute_not_exists(pk)").build()).build());
            add(items, roles, Role.VERSION, putVersion(ownerId, configId, 1, storable, kind, linked, null, requestKey, now));
            if (storable.nameKey() != null) {
                add(items, roles, Role.NEW_NAME, claimName(ownerId, storable.nameKey(), configId));
            }
            if (linked != null) {
                add(items, roles, Role.LINKED, linked.item(configId, 1, now));
            }
            if (transact(items, roles, new Attempt(configId, null, storable.name(), linked, now, attempt)) == Outcome.DONE) {
                return new StoredConfig(configId, ownerId, storable.name(), 1, storable.config(), now, now);
            }
            pause();
        }
    }

    StoredConfig change(String ownerId, String configId, long baseVersion, TableConfig config, Instant now,
                        ChangeKind kind, LinkedWrite linked, Long restoredFrom) {
        return change(ownerId, configId, baseVersion, config, now, kind, linked, restoredFrom, null);
    }

    private StoredConfig change(String ownerId, String configId, long baseVersion, TableConfig config, Instant now,
                                ChangeKind kind, LinkedWrite linked, Long restoredFrom, String requestKey) {
        for (int attempt = 1; ; attempt++) {
            Map<String, AttributeValue> current = StorableConfig.isPlausibleId(configId)
                    ? head(ownerId, configId).orElse(null) : null;
            if (current == null) {
                if (linked != null) {
                    linked.checkBeforeRefusing(now); // an accepted preview of a deleted config still reads as accepted
                }
                throw ConfigNotFoundException.config(configId);
            }
            long currentVersion = Attributes.number(current, "version");
            if (currentVersion != baseVersion) {
                if (linked != null) {
                    linked.checkBeforeRefusing(now); // "already accepted" says more than "moved on"
                }
                throw new VersionConflictException(configId, baseVersion, currentVersion);
            }
            long next = baseVersion + 1;
            StorableConfig storable = StorableConfig.of(config, configId, next);
            List<Role> roles = new ArrayList<>();
            List<TransactWriteItem> items = new ArrayList<>();
            add(items, roles, Role.CURRENT, moveCurrent(ownerId, configId, baseVersion, storable, now));
            add(items, roles, Role.VERSION, putVersion(ownerId, configId, next, storable, kind, linked, restoredFrom, requestKey, now));
            String oldKey = Attributes.string(current, "nameKey");
            if (!Objects.equals(oldKey, storable.nameKey())) {
                if (oldKey != null) {
                    add(items, roles, Role.OLD_NAME, releaseName(ownerId, oldKey, configId));
                }
                if (storable.nameKey() != null) {
                    add(items, roles, Role.NEW_NAME, claimName(ownerId, storable.nameKey(), configId));
                }
            }
            if (linked != null) {
                add(items, roles, Role.LINKED, linked.item(configId, next, now));
            }
            StoredConfig result = new StoredConfig(configId, ownerId, storable.name(), next, storable.config(),
                    Attributes.instant(current, "createdAt"), now);
            if (transact(items, roles, new Attempt(configId, baseVersion, storable.name(), linked, now, attempt)) == Outcome.DONE) {
                return result;
            }
            pause();
        }
    }

    // ---- transactions and what their cancellations mean ----

    private enum Role { CURRENT, VERSION, OLD_NAME, NEW_NAME, LINKED }

    private enum Outcome { DONE, RETRY }

    /** What a transaction tries to do, for reading its cancellation: {@code baseVersion} is null when creating. */
    private record Attempt(String configId, Long baseVersion, String name, LinkedWrite linked, Instant now, int number) {
    }

    private static void add(List<TransactWriteItem> items, List<Role> roles, Role role, TransactWriteItem item) {
        items.add(item);
        roles.add(role);
    }

    /**
     * Runs the transaction. A cancellation becomes the domain failure of the item that caused it; one lost only
     * to another transaction in flight asks for a retry (from a fresh read), until the attempts run out.
     */
    private Outcome transact(List<TransactWriteItem> items, List<Role> roles, Attempt attempt) {
        try {
            dynamo.transactWriteItems(TransactWriteItemsRequest.builder().transactItems(items).build());
            return Outcome.DONE;
        } catch (TransactionCanceledException e) {
            RuntimeException failure = cancellation(e, roles, attempt);
            if (failure != null) {
                throw failure;
            }
            if (attempt.number() >= ATTEMPTS) {
                throw new StoreUnavailableException("the config is being changed by other requests; try again", 1, e);
            }
            return Outcome.RETRY;
        } catch (SdkException e) {
            throw DynamoDbFaults.translate(e);
        }
    }

    /** The failure a cancelled transaction means, or null when it only lost to a concurrent transaction. */
    private RuntimeException cancellation(TransactionCanceledException e, List<Role> roles, Attempt attempt) {
        List<CancellationReason> reasons = e.hasCancellationReasons() ? e.cancellationReasons() : List.of();
        Map<Role, CancellationReason> failed = new HashMap<>();
        boolean conflict = false;
        boolean throttled = false;
        for (int i = 0; i < reasons.size() && i < roles.size(); i++) {
            String code = reasons.get(i).code();
            if ("ConditionalCheckFailed".equals(code)) {
                failed.put(roles.get(i), reasons.get(i));
            } else if ("TransactionConflict".equals(code)) {
                conflict = true;
            } else if (code != null && (code.contains("Throttl") || code.contains("ProvisionedThroughput")
                    || code.contains("RequestLimit"))) {
                throttled = true;
            }
        }
        if (failed.containsKey(Role.LINKED)) {
            // "already accepted" (or rejected, or expired) says more than anything else that failed with it
            return attempt.linked().refusal(attempt.now());
        }
        if (failed.containsKey(Role.CURRENT) || failed.containsKey(Role.VERSION) || failed.containsKey(Role.OLD_NAME)) {
            if (attempt.baseVersion() == null) {
                return null; // a create whose fresh id collided: vanishingly rare, and safe to retry with another id
            }
            CancellationReason current = failed.get(Role.CURRENT);
            Long now = current != null && current.hasItem() ? Attributes.number(current.item(), "version") : null;
            return new VersionConflictException(attempt.configId(), attempt.baseVersion(), now);
        }
        if (failed.containsKey(Role.NEW_NAME)) {
            return new ConfigNameTakenException(attempt.name());
        }
        if (conflict) {
            return null;
        }
        if (throttled) {
            return new StoreUnavailableException("DynamoDB is throttling", 1, e);
        }
        return new IllegalStateException("config transaction cancelled: " + e.getMessage(), e);
    }

    // ---- items ----

    private Map<String, AttributeValue> headItem(String ownerId, String configId, StorableConfig storable,
                                                 Instant createdAt, Instant now) {
        Map<String, AttributeValue> item = new HashMap<>();
        item.put("pk", s(partition(ownerId)));
        item.put("sk", s(CONFIG + configId));
        item.put("itemType", s("config"));
        item.put("ownerId", s(ownerId));
        item.put("configId", s(configId));
        item.put("version", n(storable.config().version()));
        item.put("config", s(storable.body()));
        if (storable.name() != null) {
            item.put("name", s(storable.name()));
            item.put("nameKey", s(storable.nameKey()));
        }
        if (storable.description() != null) {
            item.put("description", s(storable.description()));
        }
        item.put("createdAt", s(createdAt.toString()));
        item.put("updatedAt", s(now.toString()));
        return item;
    }

    private TransactWriteItem moveCurrent(String ownerId, String configId, long baseVersion, StorableConfig storable,
                                          Instant now) {
        Map<String, String> names = new HashMap<>(Map.of("#version", "version", "#config", "config"));
        Map<String, AttributeValue> values = new HashMap<>(Map.of(
                ":base", n(baseVersion), ":next", n(storable.config().version()),
                ":body", s(storable.body()), ":now", s(now.toString())));
        List<String> set = new ArrayList<>(List.of("#version = :next", "#config = :body", "updatedAt = :now"));
        List<String> remove = new ArrayList<>();
        names.put("#name", "name");
        if (storable.name() != null) {
            set.add("#name = :name");
            set.add("nameKey = :nameKey");
            values.put(":name", s(storable.name()));
            values.put(":nameKey", s(storable.nameKey()));
        } else {
            remove.add("#name");
            remove.add("nameKey");
        }
        if (storable.description() != null) {
            set.add("description = :description");
            values.put(":description", s(storable.description()));
        } else {
            remove.add("description");
        }
        String expression = "SET " + String.join(", ", set) + (remove.isEmpty() ? "" : " REMOVE " + String.join(", ", remove));
        return TransactWriteItem.builder().update(Update.builder()
                .tableName(table)
                .key(key(ownerId, CONFIG + configId))
                .updateExpression(expression)
                .conditionExpression("#version = :base")
                .expressionAttributeNames(names)
                .expressionAttributeValues(values)
                .returnValuesOnConditionCheckFailure(ReturnValuesOnConditionCheckFailure.ALL_OLD)
                .build()).build();
    }

    private TransactWriteItem putVersion(String ownerId, String configId, long version, StorableConfig storable,
                                         ChangeKind kind, LinkedWrite linked, Long restoredFrom, String requestKey,
                                         Instant now) {
        Map<String, AttributeValue> item = new HashMap<>(key(ownerId, versionKey(configId, version)));
        item.put("itemType", s("version"));
        item.put("ownerId", s(ownerId));
        item.put("configId", s(configId));
        item.put("version", n(version));
        item.put("config", s(storable.body()));
        if (storable.name() != null) {
            item.put("name", s(storable.name()));
        }
        item.put("change", s(kind.wireName()));
        if (linked != null) {
            item.putAll(linked.versionAttributes());
        }
        if (restoredFrom != null) {
            item.put("restoredFrom", n(restoredFrom));
        }
        if (requestKey != null) {
            item.put("requestKey", s(requestKey));
        }
        item.put("createdAt", s(now.toString()));
        return TransactWriteItem.builder().put(Put.builder().tableName(table).item(item)
                .conditionExpression("attribute_not_exists(pk)").build()).build();
    }

    private TransactWriteItem claimName(String ownerId, String nameKey, String configId) {
        Map<String, AttributeValue> item = new HashMap<>(key(ownerId, NAME + nameKey));
        item.put("itemType", s("name"));
        item.put("ownerId", s(ownerId));
        item.put("configId", s(configId));
        item.put("name", s(nameKey));
        return TransactWriteItem.builder().put(Put.builder().tableName(table).item(item)
                .conditionExpression("attribute_not_exists(pk)").build()).build();
    }

    private TransactWriteItem releaseName(String ownerId, String nameKey, String configId) {
        return TransactWriteItem.builder().delete(Delete.builder().tableName(table)
                .key(key(ownerId, NAME + nameKey))
                .conditionExpression("configId = :id")
                .expressionAttributeValues(Map.of(":id", s(configId)))
                .build()).build();
    }

    // ---- plumbing ----

    private Optional<Map<String, AttributeValue>> head(String ownerId, String configId) {
        return Optional.ofNullable(getItem(ownerId, CONFIG + configId));
    }

    private Map<String, AttributeValue> getItem(String ownerId, String sortKey) {
        try {
            Map<String, AttributeValue> item = dynamo.getItem(GetItemRequest.builder().tableName(table)
                    .key(key(ownerId, sortKey)).consistentRead(true).build()).item();
            return item == null || item.isEmpty() ? null : item;
        } catch (SdkException e) {
            throw DynamoDbFaults.translate(e);
        }
    }

    private QueryResponse query(String ownerId, String prefix, int limit, String cursor, boolean forward,
                                String projection) {
        QueryRequest.Builder request = QueryRequest.builder()
                .tableName(table)
                .keyConditionExpression("pk = :pk AND begins_with(sk, :prefix)")
                .expressionAttributeValues(Map.of(":pk", s(partition(ownerId)), ":prefix", s(prefix)))
                .expressionAttributeNames(Map.of("#name", "name", "#version", "version"))
                .projectionExpression(projection)
                .scanIndexForward(forward)
                .consistentRead(true)
                .limit(Math.max(1, Math.min(limit, 100)));
        if (cursor != null && !cursor.isEmpty()) {
            request.exclusiveStartKey(key(ownerId, QueryCursor.read(cursor, CURSOR, Map.of("sk", sk -> sk.startsWith(prefix))).get("sk")));
        }
        try {
            return dynamo.query(request.build());
        } catch (SdkException e) {
            throw DynamoDbFaults.translate(e);
        }
    }

    private static StoredConfig stored(Map<String, AttributeValue> item) {
        return new StoredConfig(Attributes.string(item, "configId"), Attributes.string(item, "ownerId"),
                Attributes.string(item, "name"), Attributes.number(item, "version"), body(item),
                Attributes.instant(item, "createdAt"), Attributes.instant(item, "updatedAt"));
    }

    private static ConfigVersion version(Map<String, AttributeValue> item, boolean withBody) {
        String change = Attributes.string(item, "change");
        return new ConfigVersion(Attributes.string(item, "configId"), Attributes.number(item, "version"),
                Attributes.string(item, "name"), change == null ? null : ChangeKind.fromWire(change),
                Attributes.string(item, "previewId"), Attributes.number(item, "restoredFrom"),
                withBody ? body(item) : null, Attributes.instant(item, "createdAt"));
    }

    private static TableConfig body(Map<String, AttributeValue> item) {
        return ConfigJson.readWritten(Attributes.string(item, "config"));
    }

    private static Map<String, AttributeValue> key(String ownerId, String sortKey) {
        return Map.of("pk", s(partition(ownerId)), "sk", s(sortKey));
    }

    private static String partition(String ownerId) {
        return "OWNER#" + ownerId;
    }

    private static String versionKey(String configId, long version) {
        return VERSION + configId + "#" + String.format("%010d", version);
    }

    private static void pause() {
        try {
            Thread.sleep(ThreadLocalRandom.current().nextLong(5, 40));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new StoreUnavailableException("interrupted while waiting to retry", 1, e);
        }
    }
}
