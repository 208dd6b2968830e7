package dev.tablewright.agent.model;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ModelRetryPolicyTest {

    private static final Instant NOW = Instant.parse("2026-01-01T00:00:00Z");
    private static final Instant FAR = NOW.plusSeconds(600);
    private final ModelRetryPolicy policy = new ModelRetryPolicy(3, Duration.ofMillis(200));

    private static ModelFailure failure(ModelFailure.Kind kind) {
        return new ModelFailure(kind, kind.name(), false);
    }

    @Test
    void aRetryableFailureWaitsTheBackoffWithJitterDoublingEachAttempt() {
        for (int i = 0; i < 50; i++) {
            long first = assertInstanceOf(ModelRetryPolicy.Wait.class,
                    policy.after(failure(ModelFailure.Kind.UNAVAILABLE), false, 1, NOW, FAR)).delay().toMillis();
            assertTrue(first >= 200 && first < 300, "first wait " + first);
            long second = assertInstanceOf(ModelRetryPolicy.Wait.class,
                    policy.after(failure(ModelFailure.Kind.RATE_LIMITED), false, 2, NOW, FAR)).delay().toMillis();
            assertTrue(second >= 400 && second < 600, "second wait " + second);
        }
    }

    @Test
    void theLastAttemptARejectionAndAnAnswerAlreadyStreamedAreNotRetried() {
        assertInstanceOf(ModelRetryPolicy.GiveUp.class, policy.after(failure(ModelFailure.Kind.TIMEOUT), false, 3, NOW, FAR));
        assertInstanceOf(ModelRetryPolicy.GiveUp.class, policy.after(failure(ModelFailure.Kind.REJECTED), false, 1, NOW, FAR));
        assertInstanceOf(ModelRetryPolicy.GiveUp.class, policy.after(failure(ModelFailure.Kind.UNAVAILABLE), true, 1, NOW, FAR));
        assertInstanceOf(ModelRetryPolicy.GiveUp.class,
                policy.after(new ModelFailure(ModelFailure.Kind.UNAVAILABLE, "cut", true), false, 1, NOW, FAR), "after the first byte");
        assertInstanceOf(ModelRetryPolicy.GiveUp.class,
                new ModelRetryPolicy(0, Duration.ofMillis(200)).after(failure(ModelFailure.Kind.UNAVAILABLE), false, 1, NOW, FAR),
                "no attempts configured: one attempt");
    }

    @Test
    void retryAfterIsHonouredUpToTenSeconds() {
        ModelFailure asked = new ModelFailure(ModelFailure.Kind.RATE_LIMITED, "429", false, Duration.ofSeconds(4));
        assertEquals(Duration.ofSeconds(4), assertInstanceOf(ModelRetryPolicy.Wait.class, policy.after(asked, false, 1, NOW, FAR)).delay());
        ModelFailure tooLong = new ModelFailure(ModelFailure.Kind.RATE_LIMITED, "429", false, Duration.ofMinutes(5));
        assertEquals(Duration.ofSeconds(10), assertInstanceOf(ModelRetryPolicy.Wait.class, policy.after(tooLong, false, 1, NOW, FAR)).delay());
    }

    @Test
    void aWaitThatWouldNotEndASecondBeforeTheDeadlineIsOutOfTime() {
        ModelFailure asked = new ModelFailure(ModelFailure.Kind.RATE_LIMITED, "429", false, Duration.ofSeconds(4));
        assertInstanceOf(ModelRetryPolicy.OutOfTime.class, policy.after(asked, false, 1, NOW, NOW.plusMillis(4_900)));
        assertInstanceOf(ModelRetryPolicy.Wait.class, policy.after(asked, false, 1, NOW, NOW.plusMillis(5_100)));
    }
}
