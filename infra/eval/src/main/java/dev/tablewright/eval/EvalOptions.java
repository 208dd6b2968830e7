package dev.tablewright.eval;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * The command line of {@code infra/bin/eval}, read strictly: an unknown option or a value that does not fit is a
 * {@link Usage} naming it.
 *
 * @param tasks       null: the bundled corpus
 * @param only        task ids to run (empty: all)
 * @param tag         run only the tasks with this tag (null: no tag filter)
 * @param minPassRate null: no threshold
 * @param price       null: no cost
 * @param compare     two report files: compare them instead of running
 */
public record EvalOptions(Path tasks, int runs, Set<String> only, String tag, Path out, Double minPassRate,
                          int concurrency, Report.Price price, List<Path> compare, boolean help) {

    public static final Path DEFAULT_OUT = Path.of("target", "eval");

    public static final String USAGE = """
            usage: infra/bin/eval [--tasks FILE] [--runs K] [--only ID,...] [--tag TAG] [--out DIR]
                                  [--min-pass-rate R] [--concurrency N] [--price IN,OUT]
                   infra/bin/eval --compare A/report.json B/report.json

            Runs each task through the local stack's chat path (in this JVM) against the model the environment names,
            as infra/bin/local-stack picks it: OPENAI_API_KEY / OPENAI_BASE_URL / OPENAI_MODEL, or MODEL_PROVIDER=bedrock
            with BEDROCK_MODEL_ID (and AWS credentials, AWS_REGION) or BEDROCK_ENDPOINT; with neither, the offline demo
            model, which then runs only the tasks tagged demo. The sample database is loaded into DATABASE_URL (else
            the local stack's choice).

              --tasks FILE         JSON Lines, one task a line (default: the bundled corpus; docs/evaluation.md)
              --runs K             runs of each task (default 1): pass@1 and pass^K
              --only ID,...        only these tasks
              --tag TAG            only the tasks with this tag
              --out DIR            where report.json, report.md and stack.log go (default target/eval)
              --min-pass-rate R    exit 1 when the overall pass@1 is below R (0 to 1); the report is written anyway
              --concurrency N      runs at once (default 1)
              --price IN,OUT       dollars per million input and output tokens: the report adds the cost
              --compare A B        print the tasks whose pass@1 changed between two reports, and the overall deltas
            """;

    /** A command line that does not read, with what is wrong. */
    public static final class Usage extends Exception {
        public Usage(String message) {
            super(message);
        }
    }

    public static EvalOptions parse(String... args) throws Usage {
        return parse(Path.of(""), args);
    }

    /** @param base what relative paths are relative to: the caller's working directory */
    public static EvalOptions parse(Path base, String... args) throws Usage {
        Path tasks = null;
        int runs = 1;
        Set<String> only = new LinkedHashSet<>();
        String tag = null;
        Path out = base.resolve(DEFAULT_OUT);
        Double minPassRate = null;
        int concurrency = 1;
        Report.Price price = null;
        List<Path> compare = new ArrayList<>();
        boolean help = false;
        for (int i = 0; i < args.length; i++) {
            String arg = args[i];
            switch (arg) {
                case "-h", "--help" -> help = true;
                case "--tasks" -> tasks = base.resolve(value(args, ++i, arg));
                case "--runs" -> runs = positive(value(args, ++i, arg), arg);
                case "--only" -> {
                    for (String id : value(args, ++i, arg).split(",")) {
                        if (!id.isBlank()) {
                            only.add(id.strip());
                        }
                    }
                    if (only.isEmpty()) {
                        throw new Usage("--only needs at least one task id");
                    }
                }
                case "--tag" -> tag = value(args, ++i, arg).strip();
                case "--out" -> out = base.resolve(value(args, ++i, arg));
                case "--min-pass-rate" -> {
                    String v = value(args, ++i, arg);
                    try {
                        minPassRate = Double.parseDouble(v);
                    } catch (NumberFormatException e) {
                        minPassRate = Double.NaN;
                    }
                    if (!(minPassRate >= 0 && minPassRate <= 1)) {
                        throw new Usage("--min-pass-rate must be a number from 0 to 1, got " + v);
                    }
                }
                case "--concurrency" -> concurrency = positive(value(args, ++i, arg), arg);
                case "--price" -> price = price(value(args, ++i, arg));
                case "--compare" -> {
                    compare.add(base.resolve(value(args, ++i, arg)));
                    compare.add(base.resolve(value(args, ++i, arg)));
                }
                default -> throw new Usage("unknown argument " + arg + " (try --help)");
            }
        }
        if (!compare.isEmpty() && args.length != 3) {
            throw new Usage("--compare takes two report files and nothing else");
        }
        return new EvalOptions(tasks, runs, only, tag, out, minPassRate, concurrency, price, compare, help);
    }

    private static String value(String[] args, int i, String option) throws Usage {
        if (i >= args.length || args[i].startsWith("--")) {
            throw new Usage(option + " needs a value");
        }
        return args[i];
    }

    private static int positive(String value, String option) throws Usage {
        try {
            int n = Integer.parseInt(value.strip());
            if (n >= 1 && n <= 1000) {
                return n;
            }
        } catch (NumberFormatException e) {
            // below
        }
        throw new Usage(option + " must be a whole number from 1 to 1000, got " + value);
    }

    private static Report.Price price(String value) throws Usage {
        String[] parts = value.split(",");
        if (parts.length == 2) {
            try {
                double in = Double.parseDouble(parts[0].strip());
                double out = Double.parseDouble(parts[1].strip());
                if (in >= 0 && out >= 0 && Double.isFinite(in) && Double.isFinite(out)) {
                    return new Report.Price(in, out);
                }
            } catch (NumberFormatException e) {
                // below
            }
        }
        throw new Usage("--price must be IN,OUT: dollars per million input and output tokens, e.g. 2.00,8.00; got "
                + value.toLowerCase(Locale.ROOT));
    }
}
