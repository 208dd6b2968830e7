package dev.tablewright.eval;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Consumer;

/**
 * Runs tasks on one deployment: every task {@code runs} times, up to {@code concurrency} runs at once (each run is a
 * user and a conversation of its own, so runs share nothing but the deployment and the model), each run reported to
 * {@code progress} as it ends. The records come back in task order, then run order, whatever order they ended in.
 */
public final class Evaluation {

    private Evaluation() {
    }

    /** @param batch a short id of this harness run, in every run's user and conversation id */
    public static List<RunRecord> run(EvalStack stack, List<EvalTask> tasks, int runs, int concurrency, String batch,
                                      Consumer<RunRecord> progress) throws InterruptedException {
        ExecutorService pool = Executors.newFixedThreadPool(Math.max(1, concurrency), r -> {
            Thread t = new Thread(r, "eval-run");
            t.setDaemon(true);
            return t;
        });
        try {
            List<Future<RunRecord>> futures = new ArrayList<>();
            for (EvalTask task : tasks) {
                for (int run = 1; run <= runs; run++) {
                    int number = run;
                    futures.add(pool.submit(() -> {
                        RunRecord record = new TaskRun(stack, task, number, batch).execute();
                        synchronized (progress) {
                            progress.accept(record);
                        }
                        return record;
                    }));
                }
            }
            List<RunRecord> records = new ArrayList<>();
            for (Future<RunRecord> f : futures) {
                try {
                    records.add(f.get());
                } catch (ExecutionException e) {
                    throw new IllegalStateException("a run failed outside its own handling", e.getCause());
                }
            }
            return records;
        } finally {
            pool.shutdownNow();
        }
    }
}
