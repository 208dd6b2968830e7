package dev.tablewright.userinput;

import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * A field's {@code validation} regular expression, compiled and matched so that neither a pathological pattern
 * (catastrophic backtracking such as {@code (a+)+$}) nor a huge value can hang the function:
 * <ul>
 *   <li>patterns longer than {@link #MAX_PATTERN_LENGTH} or that do not compile are refused up front;</li>
 *   <li>values longer than {@link #MAX_VALUE_LENGTH} are refused before any matching;</li>
 *   <li>the match reads the value through a {@link CharSequence} that counts every character access and stops
 *       the match after {@link #STEP_BUDGET} of them (backtracking re-reads characters, so this bounds its work);</li>
 *   <li>a {@link StackOverflowError} from deep recursion in the regex engine ends the match the same way.</li>
 * </ul>
 * A match that runs out of budget counts as "not checked", which the validator reports as invalid.
 */
public final class SafePattern {

    public static final int MAX_PATTERN_LENGTH = 512;
    public static final int MAX_VALUE_LENGTH = 4096;
    /** About a few milliseconds of regex work; a sane pattern over a 4 KB value needs far fewer steps. */
    public static final long STEP_BUDGET = 200_000;

    public enum Result { MATCH, NO_MATCH, TOO_COSTLY }

    private final Pattern pattern;

    private SafePattern(Pattern pattern) {
        this.pattern = pattern;
    }

    /** @throws IllegalArgumentException with a plain reason when the pattern is too long or does not compile */
    public static SafePattern compile(String regex) {
        if (regex == null || regex.isEmpty()) {
            throw new IllegalArgumentException("the pattern is empty");
        }
        if (regex.length() > MAX_PATTERN_LENGTH) {
            throw new IllegalArgumentException("the pattern is longer than " + MAX_PATTERN_LENGTH + " characters");
        }
        try {
            return new SafePattern(Pattern.compile(regex));
        } catch (PatternSyntaxException e) {
            throw new IllegalArgumentException("the pattern does not compile: " + e.getDescription());
        } catch (StackOverflowError e) {
            throw new IllegalArgumentException("the pattern is too deeply nested");
        }
    }

    /** Whether the whole value matches, within the budget. */
    public Result matches(String value) {
        if (value.length() > MAX_VALUE_LENGTH) {
            return Result.TOO_COSTLY;
        }
        try {
            return pattern.matcher(new BudgetedChars(value, new long[]{STEP_BUDGET}, 0, value.length())).matches()
                    ? Result.MATCH : Result.NO_MATCH;
        } catch (BudgetExceeded | StackOverflowError e) {
            return Result.TOO_COSTLY;
        }
    }

    public String pattern() {
        return pattern.pattern();
    }

    private static final class BudgetExceeded extends RuntimeException {
        BudgetExceeded() {
            super(null, null, false, false);
        }
    }

    /** A view of a string whose every {@code charAt} spends one step of a shared budget. */
    private record BudgetedChars(String text, long[] budget, int start, int end) implements CharSequence {
        @Override
        public int length() {
            return end - start;
        }

        @Override
        public char charAt(int index) {
            if (--budget[0] < 0) {
                throw new BudgetExceeded();
            }
            return text.charAt(start + index);
        }

        @Override
        public CharSequence subSequence(int from, int to) {
            return new BudgetedChars(text, budget, start + from, start + to);
        }

        @Override
        public String toString() {
            return text.substring(start, end);
        }
    }
}
