package dev.tablewright.operations;

import dev.tablewright.grounding.CatalogLookup;
import dev.tablewright.config.Sort;
import dev.tablewright.config.SortDirection;
import dev.tablewright.config.TableConfig;
import dev.tablewright.schema.SchemaCatalog;
import dev.tablewright.validation.Identifiers;
import dev.tablewright.validation.ConfigValidator;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * {@code apply_sort_change}: {@code add} appends sort entries (or changes the direction of a column already
 * sorted), {@code remove} drops the entries of the given columns, {@code set} replaces the whole sort (an empty
 * list clears it). A sort column that is not selected is added as a hidden column, as for filters.
 */
public final class SortChange {

    public enum Operation { ADD, REMOVE, SET }

    private final SchemaCatalog catalog;

    public SortChange() {
        this(null);
    }

    /** @param catalog the live schema to ground names in; null runs ungrounded (with a warning) */
    public SortChange(SchemaCatalog catalog) {
        this.catalog = catalog;
    }

    public OperationResult apply(TableConfig config, Operation operation, List<SortSpec> sort) {
        ChangeLog log = new ChangeLog();
        ConfigDraft draft = Operations.draft(config, log);
        if (draft == null) {
            return log.finish(null);
        }
        if (operation == null) {
            log.error("operation", "operation is missing; one of add, remove, set");
            return log.finish(draft);
        }
        if (sort == null || (sort.isEmpty() && operation != Operation.SET)) {
            log.error("sort", "sort is empty; give at least one {column, direction}");
            return log.finish(draft);
        }
        if (sort.size() > ConfigValidator.MAX_SORTS) {
            log.error("sort", "too many sort entries: " + sort.size() + " (at most " + ConfigValidator.MAX_SORTS + ")");
            return log.finish(draft);
        }
        CatalogLookup grounding = CatalogLookup.reportingOutages(catalog);
        switch (operation) {
            case ADD -> add(draft, sort, log, grounding);
            case REMOVE -> remove(draft, sort, log);
            case SET -> set(draft, sort, log, grounding);
        }
        return log.finish(draft);
    }

    private record Entry(String key, SortDirection direction) {
    }

    /** Resolves every entry (selecting hidden columns as needed); null after an error. */
    private List<Entry> resolve(ConfigDraft d, List<SortSpec> sort, ChangeLog log, CatalogLookup grounding) {
        List<Entry> out = new ArrayList<>();
        Set<String> seen = new HashSet<>();
        boolean noted = false;
        for (int i = 0; i < sort.size(); i++) {
            SortSpec s = sort.get(i);
            String p = "sort[" + i + "]";
            if (s == null) {
                log.error(p, "sort entry is empty");
                continue;
            }
            SortDirection dir = SortDirection.ASC;
            if (s.direction() != null && !s.direction().isEmpty()) {
                dir = SortDirection.parse(s.direction()).orElse(null);
                if (dir == null) {
                    log.error(p + ".direction", "direction " + Identifiers.quote(s.direction()) + " is not asc or desc");
                    continue;
                }
            }
            if (!Identifiers.check(log.problems, p + ".column", "sort column", s.column())) {
                continue;
            }
            String key = s.column();
            if (!d.isSelected(key)) {
                if (!noted) {
                    grounding.noteIfUngrounded(log.problems);
                    noted = true;
                }
                key = new ColumnSelection(d, log, grounding).selectHidden(
                        new ColumnSpec(s.column(), s.sourceTable(), null, null, null, true, null, null), p + ".column");
                if (key == null) {
                    continue;
                }
            }
            if (!seen.add(key)) {
                log.error(p + ".column", "column " + Identifiers.quote(key) + " appears twice in this sort");
                continue;
            }
            out.add(new Entry(key, dir));
        }
        return log.failed() ? null : out;
    }

    private void add(ConfigDraft d, List<SortSpec> sort, ChangeLog log, CatalogLookup grounding) {
        List<Entry> entries = resolve(d, sort, log, grounding);
        if (entries == null) {
            return;
        }
        for (Entry e : entries) {
            Sort old = d.sort(e.key());
            if (old != null) {
                d.putSort(new Sort(e.key(), e.direction().wireName(), old.extra()));
                log.applied("sort on " + e.key() + " changed to " + e.direction().wireName());
            } else {
                d.putSort(new Sort(e.key(), e.direction().wireName(), null));
                log.applied("sort on " + e.key() + " " + e.direction().wireName() + " added");
            }
        }
    }

    private void remove(ConfigDraft d, List<SortSpec> sort, ChangeLog log) {
        for (int i = 0; i < sort.size(); i++) {
            SortSpec s = sort.get(i);
            String p = "sort[" + i + "].column";
            if (s == null || !Identifiers.check(log.problems, p, "sort column", s.column())) {
                continue;
            }
            List<Sort> removed = d.removeSorts(existing -> s.column().equals(existing.column()));
            removed.forEach(existing -> log.applied("sort on " + existing.column() + " removed"));
            boolean found = !removed.isEmpty();
            if (!found) {
                log.error(p, "the table is not sorted by " + Identifiers.quote(s.column()));
            }
        }
    }

    private void set(ConfigDraft d, List<SortSpec> sort, ChangeLog log, CatalogLookup grounding) {
        List<Entry> entries = resolve(d, sort, log, grounding);
        if (entries == null) {
            return;
        }
        List<Sort> sorts = new ArrayList<>();
        List<String> words = new ArrayList<>();
        for (Entry e : entries) {
            sorts.add(new Sort(e.key(), e.direction().wireName(), null));
            words.add(e.key() + " " + e.direction().wireName());
        }
        d.replaceSorts(sorts);
        log.applied(words.isEmpty() ? "sort cleared" : "sort set to " + String.join(", ", words));
    }
}
