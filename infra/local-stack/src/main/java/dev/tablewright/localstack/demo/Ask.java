package dev.tablewright.localstack.demo;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What the user asks, read from their last message by a handful of patterns: the whole of the demo model's
 * understanding. Anything else is {@link NotUnderstood}.
 */
sealed interface Ask {

    /** "Show stock levels with their warehouse name": a new table on {@code subject}, with {@code with} named parts. */
    record Build(Words subject, String subjectText, List<Words> with, List<String> withText) implements Ask {
    }

    /** "Only show quantities above 100". {@code value} is a number or text. */
    record Filter(Words column, String operator, Object value, String phrase) implements Ask {
    }

    /** "Sort by quantity descending". */
    record Sort(Words column, String direction, String phrase) implements Ask {
    }

    /** "Remove the reorder level column". */
    record Remove(Words column, String phrase) implements Ask {
    }

    /** "Rename quantity to On hand": the column's header. */
    record Rename(Words column, String header, String phrase) implements Ask {
    }

    /** "Add the last counted at column". */
    record Add(Words column, String phrase) implements Ask {
    }

    /** "help", "hi", "what can you do". */
    record Help() implements Ask {
    }

    record NotUnderstood() implements Ask {
    }

    Pattern RENAME = Pattern.compile("^(?:please\\s+)?rename\\s+(?:the\\s+)?(.+?)(?:\\s+column)?\\s+(?:to|as)\\s+(.+)$", Pattern.CASE_INSENSITIVE);
    Pattern REMOVE = Pattern.compile("^(?:please\\s+)?(?:remove|drop|delete)\\s+(?:the\\s+)?(.+?)(?:\\s+column)?$", Pattern.CASE_INSENSITIVE);
    Pattern SORT = Pattern.compile("^(?:please\\s+)?(?:sort|order)(?:\\s+(?:it|them|the table|the rows))?\\s+by\\s+(?:the\\s+)?(.+?)"
            + "(?:,?\\s+(ascending|descending|asc|desc|(?:largest|highest|biggest|newest|latest|most|smallest|lowest|oldest|fewest|least)\\s+first))?$",
            Pattern.CASE_INSENSITIVE);
    Pattern FILTER = Pattern.compile("^(?:please\\s+)?(?:(?:show\\s+)?only|just|filter(?:\\s+to|\\s+on|\\s+by)?|keep\\s+only)\\s+"
            + "(?:show\\s+|keep\\s+|rows\\s+|those\\s+)*(?:with\\s+|where\\s+)?(?:the\\s+)?(.+?)\\s+(?:is\\s+|are\\s+|of\\s+)?"
            + "(above|over|more than|greater than|below|under|less than|fewer than|at least|at most|not equal to|equal to|equals|equal|containing|contains|starting with|starts with|=|>=|<=|>|<)\\s+(.+)$",
            Pattern.CASE_INSENSITIVE);
    Pattern ADD = Pattern.compile("^(?:please\\s+)?(?:add|also show|include)\\s+(?:the\\s+)?(.+?)(?:\\s+column)?$", Pattern.CASE_INSENSITIVE);
    Pattern BUILD = Pattern.compile("^(?:please\\s+)?(?:show(?:\\s+me)?|list|build(?:\\s+a\\s+table\\s+(?:of|with))?|give\\s+me|i\\s+want(?:\\s+to\\s+see)?)\\s+"
            + "(?:all\\s+|the\\s+|each\\s+|every\\s+)*(.+?)(?:\\s+(?:with|and)\\s+(.+))?$", Pattern.CASE_INSENSITIVE);
    Pattern HELP = Pattern.compile("^(?:hi|hello|hey|help|\\?|what can you do|who are you|what are you)\\b.*$", Pattern.CASE_INSENSITIVE);

    static Ask read(String message) {
        String text = message == null ? "" : message.strip().replaceAll("[.!?]+$", "").replaceAll("\\s+", " ");
        Matcher m;
        if ((m = RENAME.matcher(text)).matches()) {
            return new Rename(Words.of(m.group(1)), unquote(m.group(2)), text);
        }
        if ((m = REMOVE.matcher(text)).matches()) {
            return new Remove(Words.of(m.group(1)), text);
        }
        if ((m = SORT.matcher(text)).matches()) {
            return new Sort(Words.of(m.group(1)), direction(m.group(2)), text);
        }
        if ((m = FILTER.matcher(text)).matches()) {
            return new Filter(Words.of(m.group(1)), operator(m.group(2)), value(m.group(3)), text);
        }
        if ((m = ADD.matcher(text)).matches()) {
            return new Add(Words.of(m.group(1)), text);
        }
        if ((m = HELP.matcher(text)).matches() || text.isEmpty()) {
            return new Help();
        }
        if ((m = BUILD.matcher(text)).matches()) {
            List<Words> with = new ArrayList<>();
            List<String> withText = new ArrayList<>();
            if (m.group(2) != null) {
                for (String part : m.group(2).split("\\s*,\\s*(?:and\\s+)?|\\s+and\\s+")) {
                    if (!part.isBlank() && !Words.of(part).isEmpty()) {
                        with.add(Words.of(part));
                        withText.add(part.strip());
                    }
                }
            }
            Words subject = Words.of(m.group(1));
            return subject.isEmpty() ? new NotUnderstood() : new Build(subject, m.group(1).strip(), with, withText);
        }
        return new NotUnderstood();
    }

    private static String direction(String said) {
        if (said == null) {
            return "asc";
        }
        String s = said.toLowerCase(Locale.ROOT);
        return s.startsWith("desc") || s.matches("(largest|highest|biggest|newest|latest|most) first") ? "desc" : "asc";
    }

    private static String operator(String said) {
        return switch (said.toLowerCase(Locale.ROOT)) {
            case "above", "over", "more than", "greater than", ">" -> "gt";
            case "below", "under", "less than", "fewer than", "<" -> "lt";
            case "at least", ">=" -> "gte";
            case "at most", "<=" -> "lte";
            case "not equal to" -> "neq";
            case "containing", "contains" -> "contains";
            case "starting with", "starts with" -> "starts_with";
            default -> "eq";
        };
    }

    private static Object value(String said) {
        String s = unquote(said);
        try {
            BigDecimal number = new BigDecimal(s.replace(",", ""));
            return number.scale() <= 0 ? (Object) number.longValueExact() : number;
        } catch (NumberFormatException | ArithmeticException e) {
            return s;
        }
    }

    private static String unquote(String s) {
        String t = s.strip();
        if (t.length() >= 2 && "\"'“‘".indexOf(t.charAt(0)) >= 0 && "\"'”’".indexOf(t.charAt(t.length() - 1)) >= 0) {
            return t.substring(1, t.length() - 1);
        }
        return t;
    }
}
