package dev.tablewright.agui;

import dev.tablewright.failure.ErrorCode;

import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * The protocol's interrupt rules for a run on a thread: while the thread has open interrupts, the run's
 * {@code resume} must answer every one of them, once, and nothing else; an interrupt past its {@code expiresAt} (or
 * settled elsewhere) can no longer be answered, and is no longer waited on. A run that breaks a rule changes nothing: it ends in {@code RUN_ERROR} with the reason.
 */
public final class ResumeRules {

    /** Why a resume is refused, as the run's {@code RUN_ERROR}. */
    public record Broken(String message, ErrorCode code) {
    }

    private ResumeRules() {
    }

    /**
     * @param open     the interrupts the thread's last run ended on and nobody has answered yet
     * @param answered what an interrupt the thread issued but that is no longer open became (already answered,
     *                 superseded), by id; empty for an id the thread never issued
     */
    public static Optional<Broken> check(List<AgUiEvent.Interrupt> open, List<RunAgentInput.Resume> resume,
                                         Function<String, Optional<String>> answered, Instant now) {
        Map<String, AgUiEvent.Interrupt> byId = open.stream().collect(Collectors.toMap(AgUiEvent.Interrupt::id, i -> i, (a, b) -> a));
        Set<String> seen = new HashSet<>();
        for (RunAgentInput.Resume r : resume) {
            if (!seen.add(r.interruptId())) {
                return broken("resume answers interrupt " + r.interruptId() + " twice: answer each interrupt once", ErrorCode.INVALID_REQUEST);
            }
            AgUiEvent.Interrupt interrupt = byId.get(r.interruptId());
            if (interrupt == null) {
                return Optional.of(answered.apply(r.interruptId())
                        .map(was -> new Broken("interrupt " + r.interruptId() + " was already answered (" + was
                                + "): nothing was changed", ErrorCode.CONFLICT))
                        .orElseGet(() -> new Broken("interrupt " + r.interruptId() + " is not open on this thread: answer "
                                + "only the interrupts its last run ended on", ErrorCode.NOT_FOUND)));
            }
            if (expired(interrupt, now)) {
                return broken("interrupt " + r.interruptId() + " can no longer be answered: it expired or was settled "
                        + "elsewhere", ErrorCode.PREVIEW_NOT_PENDING);
            }
        }
        List<String> missing = new ArrayList<>();
        open.forEach(i -> {
            if (!seen.contains(i.id()) && !expired(i, now)) { // what can no longer be answered is not waited on
                missing.add(i.id());
            }
        });
        if (!missing.isEmpty()) {
            return broken("this thread waits on " + (missing.size() == 1 ? "interrupt " : "interrupts ")
                    + String.join(", ", missing) + ": the run's resume must answer every open interrupt", ErrorCode.INVALID_REQUEST);
        }
        return Optional.empty();
    }

    /** Past its {@code expiresAt} (a door gives one in the past for what was settled elsewhere). */
    private static boolean expired(AgUiEvent.Interrupt interrupt, Instant now) {
        return interrupt.expiresAt() != null && !now.isBefore(interrupt.expiresAt());
    }

    private static Optional<Broken> broken(String message, ErrorCode code) {
        return Optional.of(new Broken(message, code));
    }
}
