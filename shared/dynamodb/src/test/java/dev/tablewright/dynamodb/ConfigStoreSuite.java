package dev.tablewright.dynamodb;

import dev.tablewright.fakes.concurrent.SimultaneousCalls;
import dev.tablewright.fakes.configs.SampleConfigs;

import dev.tablewright.config.TableConfig;
import dev.tablewright.configstore.ChangeKind;
import dev.tablewright.configstore.ConfigNameTakenException;
import dev.tablewright.configstore.ConfigNotFoundException;
import dev.tablewright.configstore.ConfigStore;
import dev.tablewright.configstore.ConfigSummary;
import dev.tablewright.configstore.ConfigVersion;
import dev.tablewright.configstore.InvalidConfigException;
import dev.tablewright.configstore.InvalidCursorException;
import dev.tablewright.configstore.Page;
import dev.tablewright.configstore.StoredConfig;
import dev.tablewright.configstore.VersionConflictException;
import dev.tablewright.dynamodb.DynamoConfigStore;
import dev.tablewright.dynamodb.DynamoPreviewAcceptance;
import dev.tablewright.dynamodb.DynamoDbClients;
import dev.tablewright.dynamodb.DynamoPreviewStore;
import dev.tablewright.json.Json;
import dev.tablewright.preview.PendingPreview;
import dev.tablewright.preview.PreviewNotFoundException;
import dev.tablewright.preview.PreviewNotPendingException;
import dev.tablewright.preview.PreviewStatus;
import dev.tablewright.preview.PreviewStore;
import dev.tablewright.store.StoreUnavailableException;
import dev.tablewright.fakes.dynamodb.DynamoDbEngine;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The config store and the preview store against a real DynamoDB engine: written once, run on DynamoDB Local
 * ({@link ConfigStoreOnDynamoDbLocalTest}, every run) and on LocalStack ({@link ConfigStoreOnLocalStackTest},
 * skipped where Docker is not available).
 */
abstract class ConfigStoreSuite {

    private ConfigStore configs;
    private DynamoPreviewAcceptance acceptance;
    private PreviewStore previews;

    private final String owner = "u_" + UUID.randomUUID();
    private final Instant now = Instant.now();

    abstract DynamoDbEngine engine();

    @BeforeEach
    void stores() {
        configs = new DynamoConfigStore(engine().client(), configsTable());
        DynamoPreviewStore previewStore = new DynamoPreviewStore(engine().client(), previewsTable());
        previews = previewStore;
        acceptance = new DynamoPreviewAcceptance((DynamoConfigStore) configs, previewStore);
    }

    private String configsTable() {
        return engine().tables().tableName("ConfigsTable");
    }

    private String previewsTable() {
        return engine().tables().tableName("PreviewsTable");
    }

    // ---- versions ----

    @Test
    void newConfigIdsComeFromTheInjectedGenerator() {
        String id = "cfg_chosen" + UUID.randomUUID().toString().substring(0, 8);
        ConfigStore chosen = new DynamoConfigStore(engine().client(), configsTable(), at -> id);
        StoredConfig created = chosen.create(owner, SampleConfigs.orders("Chosen id"), now);
        assertEquals(id, created.configId());
        assertEquals(id, configs.get(owner, id).orElseThrow().config().id());
    }

    @Test
    void createWritesVersionOneFindableByIdAndByNameAnyCase() {
        StoredConfig created = configs.create(owner, SampleConfigs.orders("Active orders"), now);
        assertEquals(1, created.version());
        assertTrue(created.configId().startsWith("cfg_"));
        assertEquals(created.configId(), created.config().id(), "the body carries the store's id");
        assertEquals(1L, created.config().version());

        StoredConfig byId = configs.get(owner, created.configId()).orElseThrow();
        assertEquals(created.config(), byId.config());
        assertEquals("kept through every round trip", byId.config().extra().get("client_note").asText());
        assertEquals(created.configId(), configs.getByName(owner, "  ACTIVE orders ").orElseThrow().configId());
        assertTrue(configs.getByName(owner, "Other").isEmpty());
    }

    @Test
    void everyChangeIsANewVersionAndOldVersionsStayReadable() {
        StoredConfig v1 = configs.create(owner, SampleConfigs.orders("Orders"), now);
        StoredConfig v2 = configs.update(owner, v1.configId(), 1, SampleConfigs.describe(v1.config(), "second"), now);
        StoredConfig v3 = configs.update(owner, v1.configId(), 2, SampleConfigs.describe(v1.config(), "third"), now);
        assertEquals(2, v2.version());
        assertEquals(3, v3.version());
        assertEquals("third", configs.get(owner, v1.configId()).orElseThrow().config().description());

        Page<ConfigVersion> versions = configs.versions(owner, v1.configId(), 10, null);
        assertEquals(List.of(3L, 2L, 1L), versions.items().stream().map(ConfigVersion::version).toList());
        assertEquals(List.of(ChangeKind.UPDATE, ChangeKind.UPDATE, ChangeKind.CREATE),
                versions.items().stream().map(ConfigVersion::change).toList());
        assertNull(versions.items().get(0).config(), "listings leave the bodies out");
        assertEquals("Orders still open", configs.version(owner, v1.configId(), 1).orElseThrow().config().description());
        assertEquals("second", configs.version(owner, v1.configId(), 2).orElseThrow().config().description());
        assertTrue(configs.version(owner, v1.configId(), 4).isEmpty());
    }

    @Test
    void restoringAnOldVersionIsItselfANewVersion() {
        StoredConfig v1 = configs.create(owner, SampleConfigs.orders("Restorable"), now);
        configs.update(owner, v1.configId(), 1, SampleConfigs.describe(v1.config(), "changed"), now);

        StoredConfig v3 = configs.restore(owner, v1.configId(), 2, 1, now);
        assertEquals(3, v3.version());
        assertEquals("Orders still open", v3.config().description());
        ConfigVersion restored = configs.version(owner, v1.configId(), 3).orElseThrow();
        assertEquals(ChangeKind.RESTORE, restored.change());
        assertEquals(1L, restored.restoredFrom());
        assertEquals("changed", configs.version(owner, v1.configId(), 2).orElseThrow().config().description(),
                "the version restored over is kept");

        assertThrows(VersionConflictException.class, () -> configs.restore(owner, v1.configId(), 2, 1, now));
        assertThrows(ConfigNotFoundException.class, () -> configs.restore(owner, v1.configId(), 3, 9, now));
    }

    @Test
    void aChangeOnAStaleVersionFailsAndWritesNothing() {
        StoredConfig v1 = configs.create(owner, SampleConfigs.orders("Locked"), now);
        configs.update(owner, v1.configId(), 1, SampleConfigs.describe(v1.config(), "first writer"), now);

        VersionConflictException conflict = assertThrows(VersionConflictException.class,
                () -> configs.update(owner, v1.configId(), 1, SampleConfigs.describe(v1.config(), "second writer"), now));
        assertEquals(2L, conflict.currentVersion());
        assertEquals("first writer", configs.get(owner, v1.configId()).orElseThrow().config().description());
        assertEquals(2, configs.versions(owner, v1.configId(), 10, null).items().size());
    }

    // ---- names ----

    @Test
    void namesAreUniquePerOwnerAndMoveWithARename() {
        StoredConfig a = configs.create(owner, SampleConfigs.orders("Alpha"), now);
        StoredConfig b = configs.create(owner, SampleConfigs.orders("Beta"), now);
        assertThrows(ConfigNameTakenException.class, () -> configs.create(owner, SampleConfigs.orders("alpha"), now));
        assertThrows(ConfigNameTakenException.class,
                () -> configs.update(owner, b.configId(), 1, SampleConfigs.rename(b.config(), "ALPHA"), now));
        assertEquals(1, configs.get(owner, b.configId()).orElseThrow().version(), "a refused rename writes nothing");

        configs.update(owner, a.configId(), 1, SampleConfigs.rename(a.config(), "Gamma"), now);
        assertTrue(configs.getByName(owner, "Alpha").isEmpty());
        assertEquals(a.configId(), configs.getByName(owner, "gamma").orElseThrow().configId());
        // the freed name can be taken again
        configs.update(owner, b.configId(), 1, SampleConfigs.rename(b.config(), "Alpha"), now);
        assertEquals(b.configId(), configs.getByName(owner, "alpha").orElseThrow().configId());
        // another owner may use the same name
        configs.create("other-" + owner, SampleConfigs.orders("Alpha"), now);
    }

    // ---- listing ----

    @Test
    void listsPageThroughTheOwnersConfigsInCreationOrder() {
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            ids.add(configs.create(owner, SampleConfigs.orders("Listed " + i), now.plusMillis(i)).configId());
        }
        List<String> seen = new ArrayList<>();
        String cursor = null;
        int pages = 0;
        do {
            Page<ConfigSummary> page = configs.list(owner, 2, cursor);
            page.items().forEach(s -> seen.add(s.configId()));
            cursor = page.nextCursor();
            pages++;
        } while (cursor != null && pages < 10);
        assertEquals(ids, seen);
        assertThrows(InvalidCursorException.class, () -> configs.list(owner, 2, "not-a-cursor!"));
        assertThrows(InvalidCursorException.class, () -> configs.list(owner, 2,
                java.util.Base64.getUrlEncoder().encodeToString("VERSION#x#0000000001".getBytes())));
    }

    @Test
    void aConfigTooLargeForAnItemIsRefusedWithAField() {
        TableConfig huge = SampleConfigs.describe(SampleConfigs.orders("Huge"), "x".repeat(1_999));
        TableConfig body = new TableConfig(null, "Huge", null, null, huge.dataSource(), huge.visualSettings(),
                java.util.Map.of("blob", Json.MAPPER.getNodeFactory().textNode("y".repeat(310_000))));
        InvalidConfigException e = assertThrows(InvalidConfigException.class, () -> configs.create(owner, body, now));
        assertEquals("config", e.errors().get(0).field());
        assertTrue(configs.getByName(owner, "Huge").isEmpty());
    }

    @Test
    void aPreviewTooLargeForAnItemIsRefusedWithAField() {
        StoredConfig v1 = configs.create(owner, SampleConfigs.orders("Big preview"), now);
        PendingPreview big = PendingPreview.create(owner, "c_1", v1.configId(), 1L, "big", v1.config(),
                Json.object().put("sample", "ü".repeat(200_000)), now, PendingPreview.DEFAULT_TTL);
        InvalidConfigException e = assertThrows(InvalidConfigException.class, () -> previews.save(big));
        assertEquals("config", e.errors().get(0).field());
        assertTrue(previews.find(owner, big.previewId()).isEmpty());
    }

    // ---- owners ----

    @Test
    void anotherOwnerSeesNothingAndCanChangeNothing() {
        StoredConfig mine = configs.create(owner, SampleConfigs.orders("Private"), now);
        String stranger = "stranger-" + owner;
        assertTrue(configs.get(stranger, mine.configId()).isEmpty());
        assertTrue(configs.getByName(stranger, "Private").isEmpty());
        assertTrue(configs.list(stranger, 10, null).items().isEmpty());
        assertTrue(configs.versions(stranger, mine.configId(), 10, null).items().isEmpty());
        assertTrue(configs.version(stranger, mine.configId(), 1).isEmpty());
        assertThrows(ConfigNotFoundException.class, () -> configs.update(stranger, mine.configId(), 1, mine.config(), now));
        assertThrows(ConfigNotFoundException.class, () -> configs.restore(stranger, mine.configId(), 1, 1, now));

        PendingPreview preview = previews(mine, "mine");
        assertTrue(previews.find(stranger, preview.previewId()).isEmpty());
        assertThrows(PreviewNotFoundException.class, () -> previews.reject(stranger, preview.previewId(), now));
        assertEquals(PreviewStatus.PENDING, previews.find(owner, preview.previewId()).orElseThrow().status());
    }

    // ---- previews ----

    @Test
    void acceptingAPreviewWritesTheNextVersionOnce() {
        StoredConfig v1 = configs.create(owner, SampleConfigs.orders("Previewed"), now);
        PendingPreview preview = previews(v1, "add a column");

        StoredConfig v2 = acceptance.accept(preview, now);
        assertEquals(2, v2.version());
        assertEquals("add a column", v2.config().description());
        ConfigVersion written = configs.version(owner, v1.configId(), 2).orElseThrow();
        assertEquals(ChangeKind.PREVIEW, written.change());
        assertEquals(preview.previewId(), written.previewId());
        assertEquals(PreviewStatus.ACCEPTED, previews.find(owner, preview.previewId()).orElseThrow().status());

        PreviewNotPendingException again = assertThrows(PreviewNotPendingException.class,
                () -> acceptance.accept(preview, now));
        assertEquals(PreviewStatus.ACCEPTED, again.status());
        assertEquals(2, configs.get(owner, v1.configId()).orElseThrow().version());
    }

    @Test
    void aPreviewOfAStaleBaseIsAConflictAndStaysPending() {
        StoredConfig v1 = configs.create(owner, SampleConfigs.orders("Moved on"), now);
        PendingPreview preview = previews(v1, "late");
        configs.update(owner, v1.configId(), 1, SampleConfigs.describe(v1.config(), "someone else"), now);

        VersionConflictException e = assertThrows(VersionConflictException.class, () -> acceptance.accept(preview, now));
        assertEquals(2L, e.currentVersion());
        assertEquals(PreviewStatus.PENDING, previews.find(owner, preview.previewId()).orElseThrow().status());
        assertEquals("someone else", configs.get(owner, v1.configId()).orElseThrow().config().description());
    }

    @Test
    void expiredAndRejectedPreviewsCannotBeAccepted() {
        StoredConfig v1 = configs.create(owner, SampleConfigs.orders("Timed"), now);
        // Expired but not yet swept by TTL (DynamoDB deletes expired items lazily; DynamoDB Local does it within
        // seconds): the preview lives a minute, and the store is asked two minutes later.
        PendingPreview shortLived = PendingPreview.create(owner, "c_1", v1.configId(), 1L, "short",
                SampleConfigs.describe(v1.config(), "short"), null, now, Duration.ofSeconds(60));
        previews.save(shortLived);
        Instant later = now.plusSeconds(120);
        assertEquals(PreviewStatus.EXPIRED, assertThrows(PreviewNotPendingException.class,
                () -> acceptance.accept(shortLived, later)).status());
        // the same refusal even when the caller's copy of the preview still looks pending: the condition runs in DynamoDB
        PendingPreview stale = new PendingPreview(shortLived.previewId(), owner, "c_1", v1.configId(), 1L, "short",
                shortLived.config(), null, PreviewStatus.PENDING, now, later.plusSeconds(3600));
        assertEquals(PreviewStatus.EXPIRED, assertThrows(PreviewNotPendingException.class,
                () -> acceptance.accept(stale, later)).status());
        assertEquals(PreviewStatus.EXPIRED, assertThrows(PreviewNotPendingException.class,
                () -> previews.reject(owner, shortLived.previewId(), later)).status());

        PendingPreview rejected = previews(v1, "no thanks");
        assertEquals(PreviewStatus.REJECTED, previews.reject(owner, rejected.previewId(), now).status());
        PendingPreview staleCopy = rejected; // still says pending
        assertEquals(PreviewStatus.REJECTED, assertThrows(PreviewNotPendingException.class,
                () -> acceptance.accept(staleCopy, now)).status());
        assertEquals(PreviewStatus.REJECTED, assertThrows(PreviewNotPendingException.class,
                () -> previews.reject(owner, rejected.previewId(), now)).status());
        assertEquals(1, configs.get(owner, v1.configId()).orElseThrow().version());
    }

    @Test
    void aPreviewWithoutAConfigCreatesOne() {
        PendingPreview create = PendingPreview.create(owner, "c_1", null, null, "a new table",
                SampleConfigs.orders("Brand new"), null, now, PendingPreview.DEFAULT_TTL);
        previews.save(create);
        StoredConfig created = acceptance.accept(create, now);
        assertEquals(1, created.version());
        assertEquals(created.configId(), configs.getByName(owner, "brand new").orElseThrow().configId());
        assertEquals(ChangeKind.PREVIEW, configs.version(owner, created.configId(), 1).orElseThrow().change());
        assertThrows(PreviewNotPendingException.class, () -> acceptance.accept(create, now));
        assertEquals(1, configs.list(owner, 10, null).items().size(), "accepting twice created one config");
    }

    // ---- concurrency ----

    @Test
    void twoPreviewsOfOneBaseAcceptedAtOnceMakeExactlyOneVersion() throws Exception {
        for (int round = 0; round < 5; round++) {
            StoredConfig v1 = configs.create(owner, SampleConfigs.orders("Race " + round), now);
            PendingPreview left = previews(v1, "left");
            PendingPreview right = previews(v1, "right");
            List<Object> outcomes = SimultaneousCalls.race(List.of(() -> acceptance.accept(left, now), () -> acceptance.accept(right, now)));

            long accepted = outcomes.stream().filter(o -> o instanceof StoredConfig).count();
            long conflicts = outcomes.stream().filter(o -> o instanceof VersionConflictException).count();
            assertEquals(1, accepted, "outcomes " + outcomes);
            assertEquals(1, conflicts, "outcomes " + outcomes);
            StoredConfig winner = (StoredConfig) outcomes.stream().filter(o -> o instanceof StoredConfig).findFirst().orElseThrow();
            assertEquals(2, winner.version());
            assertEquals(winner.config().description(), configs.version(owner, v1.configId(), 2).orElseThrow().config().description());
            assertEquals(2, configs.versions(owner, v1.configId(), 10, null).items().size());
        }
    }

    @Test
    void onePreviewAcceptedByManyAtOnceIsAcceptedOnce() throws Exception {
        StoredConfig v1 = configs.create(owner, SampleConfigs.orders("Stampede"), now);
        PendingPreview preview = previews(v1, "once");
        List<Callable<Object>> calls = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
            calls.add(() -> acceptance.accept(preview, now));
        }
        List<Object> outcomes = SimultaneousCalls.race(calls);
        assertEquals(1, outcomes.stream().filter(o -> o instanceof StoredConfig).count(), "outcomes " + outcomes);
        assertTrue(outcomes.stream().allMatch(o -> o instanceof StoredConfig
                || o instanceof PreviewNotPendingException || o instanceof VersionConflictException), "outcomes " + outcomes);
        assertEquals(2, configs.get(owner, v1.configId()).orElseThrow().version());
    }

    @Test
    void manyWritersOnOneConfigLoseNothingThatWasAccepted() throws Exception {
        StoredConfig v1 = configs.create(owner, SampleConfigs.orders("Busy"), now);
        // each writer retries on conflict from the version it last saw, like a client re-previewing
        List<Callable<Object>> writers = new ArrayList<>();
        for (int w = 0; w < 6; w++) {
            String tag = "writer " + w;
            writers.add(() -> {
                List<Long> mine = new ArrayList<>();
                for (int i = 0; i < 3; i++) {
                    while (true) {
                        long base = configs.get(owner, v1.configId()).orElseThrow().version();
                        try {
                            mine.add(configs.update(owner, v1.configId(), base,
                                    SampleConfigs.describe(v1.config(), tag + " #" + i), now).version());
                            break;
                        } catch (VersionConflictException e) {
                            // someone else landed first: build on theirs
                        }
                    }
                }
                return mine;
            });
        }
        List<Object> outcomes = SimultaneousCalls.race(writers);
        Set<Long> written = new HashSet<>();
        for (Object o : outcomes) {
            assertTrue(o instanceof List<?>, "writer failed: " + o);
            for (Object v : (List<?>) o) {
                assertTrue(written.add((Long) v), "version " + v + " handed to two writers");
            }
        }
        assertEquals(18, written.size());
        assertEquals(19, configs.get(owner, v1.configId()).orElseThrow().version());
        for (long v = 1; v <= 19; v++) {
            assertTrue(configs.version(owner, v1.configId(), v).isPresent(), "version " + v + " is kept");
        }
    }

    // ---- faults ----

    @Test
    void anUnreachableStoreIsUnavailableNotABug() throws Exception {
        int port;
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = s.getLocalPort();
        }
        DynamoDbClient dead = DynamoDbClients.forEndpoint(URI.create("http://127.0.0.1:" + port),
                new DynamoDbClients.Settings(Duration.ofMillis(200), Duration.ofMillis(200), Duration.ofSeconds(2), 1));
        ConfigStore down = new DynamoConfigStore(dead, configsTable());
        assertThrows(StoreUnavailableException.class, () -> down.get(owner, "cfg_x"));
        assertThrows(StoreUnavailableException.class, () -> down.create(owner, SampleConfigs.orders("Down"), now));
        assertThrows(StoreUnavailableException.class, () -> new DynamoPreviewStore(dead, previewsTable()).find(owner, "prv_x"));
        assertFalse(configs.getByName(owner, "Down").isPresent());
    }

    // ---- helpers ----

    private PendingPreview previews(StoredConfig base, String description) {
        PendingPreview p = PendingPreview.create(base.ownerId(), "c_1", base.configId(), base.version(), description,
                SampleConfigs.describe(base.config(), description), Json.object().put("sql", "select 1"), now,
                PendingPreview.DEFAULT_TTL);
        previews.save(p);
        PendingPreview read = previews.find(base.ownerId(), p.previewId()).orElseThrow();
        assertEquals(p, read);
        assertNotNull(read.summary());
        return p;
    }
}
