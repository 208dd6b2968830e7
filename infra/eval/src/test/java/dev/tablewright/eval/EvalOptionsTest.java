package dev.tablewright.eval;

import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.List;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** The command line: its defaults, paths relative to where it was called, and a wrong value named. */
class EvalOptionsTest {

    @Test
    void defaultsAndValues() throws Exception {
        Path base = Path.of("/work/here");
        EvalOptions none = EvalOptions.parse(base);
        assertEquals(1, none.runs());
        assertEquals(1, none.concurrency());
        assertEquals(base.resolve("target/eval"), none.out());
        assertEquals(null, none.tasks());
        EvalOptions all = EvalOptions.parse(base, "--tasks", "t.jsonl", "--runs", "3", "--only", "a, b", "--tag", "demo",
                "--out", "/tmp/x", "--min-pass-rate", "0.8", "--concurrency", "4", "--price", "2.00,8.00");
        assertEquals(base.resolve("t.jsonl"), all.tasks());
        assertEquals(Set.of("a", "b"), all.only());
        assertEquals(Path.of("/tmp/x"), all.out());
        assertEquals(0.8, all.minPassRate());
        assertEquals(new Report.Price(2, 8), all.price());
        assertEquals(List.of(base.resolve("a.json"), base.resolve("b.json")), EvalOptions.parse(base, "--compare", "a.json", "b.json").compare());
    }

    @Test
    void aWrongValueIsNamed() {
        assertEquals("--runs must be a whole number from 1 to 1000, got 0",
                assertThrows(EvalOptions.Usage.class, () -> EvalOptions.parse("--runs", "0")).getMessage());
        assertEquals("--min-pass-rate must be a number from 0 to 1, got 80%",
                assertThrows(EvalOptions.Usage.class, () -> EvalOptions.parse("--min-pass-rate", "80%")).getMessage());
        assertEquals("--price must be IN,OUT: dollars per million input and output tokens, e.g. 2.00,8.00; got 2",
                assertThrows(EvalOptions.Usage.class, () -> EvalOptions.parse("--price", "2")).getMessage());
        assertEquals("--tasks needs a value", assertThrows(EvalOptions.Usage.class, () -> EvalOptions.parse("--tasks")).getMessage());
        assertEquals("unknown argument --model (try --help)",
                assertThrows(EvalOptions.Usage.class, () -> EvalOptions.parse("--model", "x")).getMessage());
        assertEquals("--compare takes two report files and nothing else",
                assertThrows(EvalOptions.Usage.class, () -> EvalOptions.parse("--compare", "a", "b", "--runs", "2")).getMessage());
    }
}
