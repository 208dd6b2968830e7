package dev.tablewright.userinput;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class SafePatternTest {

    @Test
    void matchesWholeValues() {
        SafePattern realm = SafePattern.compile("^[0-9]{10,20}$");
        assertEquals(SafePattern.Result.MATCH, realm.matches("9130346988354456"));
        assertEquals(SafePattern.Result.NO_MATCH, realm.matches("9130abc"));
        assertEquals(SafePattern.Result.NO_MATCH, SafePattern.compile("[a-z]+").matches("abc1"), "the whole value must match");
    }

    @Test
    void refusesPatternsThatDoNotCompileOrAreHuge() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> SafePattern.compile("([a-z"));
        assertTrue(e.getMessage().startsWith("the pattern does not compile"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> SafePattern.compile("a".repeat(SafePattern.MAX_PATTERN_LENGTH + 1)));
        assertThrows(IllegalArgumentException.class, () -> SafePattern.compile(""));
    }

    @Test
    void catastrophicBacktrackingIsCutOffByTheStepBudget() {
        // Unguarded, java.util.regex needs ~30 s for this on this machine (polynomial blow-up of nested .*);
        // the budget ends it after a few hundred thousand character reads.
        assertEquals(SafePattern.Result.TOO_COSTLY, SafePattern.compile("^(.*a){12}$").matches("a".repeat(30) + "x"));
        assertEquals(SafePattern.Result.TOO_COSTLY, SafePattern.compile("^(.*a){12}$").matches("a".repeat(3000) + "x"));
        // patterns the JDK already handles stay exact
        assertEquals(SafePattern.Result.NO_MATCH, SafePattern.compile("^(a+)+$").matches("a".repeat(40) + "!"));
    }

    @Test
    void hugeValuesAreNotMatchedAtAll() {
        assertEquals(SafePattern.Result.TOO_COSTLY, SafePattern.compile(".*").matches("x".repeat(SafePattern.MAX_VALUE_LENGTH + 1)));
        assertEquals(SafePattern.Result.MATCH, SafePattern.compile("x*").matches("x".repeat(SafePattern.MAX_VALUE_LENGTH)));
    }

    @Test
    void deepRecursionInTheEngineIsContained() {
        // alternation inside a loop recurses per character in java.util.regex
        assertTrue(SafePattern.compile("(a|b)*").matches("ab".repeat(2000)) != null);
    }
}
