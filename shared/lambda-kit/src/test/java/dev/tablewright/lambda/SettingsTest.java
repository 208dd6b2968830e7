package dev.tablewright.lambda;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class SettingsTest {

    @AfterEach
    void clear() {
        Env.clearOverrides();
    }

    @Test
    void aPositiveNumberOrItsFallback() {
        assertEquals(24, Settings.positive("INPUT_REQUEST_TTL_HOURS", null, 24));
        assertEquals(24, Settings.positive("INPUT_REQUEST_TTL_HOURS", "  ", 24));
        assertEquals(6, Settings.positive("INPUT_REQUEST_TTL_HOURS", " 6 ", 24));
    }

    @Test
    void anUnusableValueStopsTheFunctionNamingTheVariable() {
        for (String bad : new String[]{"0", "-3", "ten", "2.5", "99999999999999999999"}) {
            IllegalStateException e = assertThrows(IllegalStateException.class,
                    () -> Settings.positive("PREVIEW_SAMPLE_ROWS", bad, 10), bad);
            assertEquals("environment variable PREVIEW_SAMPLE_ROWS must be a positive whole number", e.getMessage());
        }
    }

    @Test
    void aValueReadFromTheEnvironmentOverridesTheFallback() {
        Env.override(Map.of("SAVED_VALUES_TTL_DAYS", "3"));
        assertEquals(3, Settings.positive("SAVED_VALUES_TTL_DAYS", Env.get("SAVED_VALUES_TTL_DAYS"), 7));
    }

    @Test
    void theInputRequestExpiryReadsBothVariablesWithTheDomainsDefaults() {
        var expiry = Settings.inputRequestExpiry(Map.of("INPUT_REQUEST_TTL_HOURS", "6"));
        assertEquals(java.time.Duration.ofHours(6), expiry.requestTtl());
        assertEquals(java.time.Duration.ofDays(7), expiry.valuesTtl());
        assertEquals(dev.tablewright.userinput.InputRequestService.Expiry.DEFAULT, Settings.inputRequestExpiry(Map.of()));
        assertThrows(IllegalStateException.class, () -> Settings.inputRequestExpiry(Map.of("SAVED_VALUES_TTL_DAYS", "ten")));
    }
}
