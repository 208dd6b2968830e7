package dev.tablewright.preview;

import dev.tablewright.config.TableConfig;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class PendingPreviewTest {

    private static final Instant NOW = Instant.parse("2026-01-01T10:00:00Z");
    private static final TableConfig CONFIG = new TableConfig(null, "Orders", null, null, null, null, null);

    @Test
    void aPendingPreviewReadsAsExpiredFromItsExpiryOn() {
        PendingPreview p = PendingPreview.create("u_1", "c_1", "cfg_1", 3L, "add status", CONFIG, null, NOW, Duration.ofMinutes(5));
        assertEquals(PreviewStatus.PENDING, p.statusAt(NOW.plusSeconds(299)));
        assertEquals(PreviewStatus.EXPIRED, p.statusAt(NOW.plusSeconds(300)));
        // accepted and rejected stay what they are after expiry
        assertEquals(PreviewStatus.ACCEPTED, p.withStatus(PreviewStatus.ACCEPTED).statusAt(NOW.plusSeconds(999)));
    }

    @Test
    void idsComeFromTheGeneratorGiven() {
        assertEquals("prv_chosen", PendingPreview.create(at -> "prv_chosen", "u_1", "c_1", null, null, "new table", CONFIG,
                null, NOW, PendingPreview.DEFAULT_TTL).previewId());
        String generated = PendingPreview.create("u_1", "c_1", null, null, "new table", CONFIG, null, NOW,
                PendingPreview.DEFAULT_TTL).previewId();
        assertTrue(generated.matches("prv_[0-9a-f]{32}"), generated);
    }

    @Test
    void createPathHasNeitherConfigIdNorBaseVersion() {
        PendingPreview create = PendingPreview.create("u_1", "c_1", null, null, "new table", CONFIG, null, NOW, PendingPreview.DEFAULT_TTL);
        assertTrue(create.createsConfig());
        assertTrue(create.previewId().startsWith("prv_"));
        assertNotEquals(create.previewId(), PendingPreview.create("u_1", "c_1", null, null, "x", CONFIG, null, NOW, PendingPreview.DEFAULT_TTL).previewId());
        assertThrows(IllegalArgumentException.class,
                () -> PendingPreview.create("u_1", "c_1", "cfg_1", null, "half", CONFIG, null, NOW, PendingPreview.DEFAULT_TTL));
        assertFalse(PendingPreview.create("u_1", "c_1", "cfg_1", 1L, "update", CONFIG, null, NOW, PendingPreview.DEFAULT_TTL).createsConfig());
    }
}
