package dev.tablewright.grounding;

import dev.tablewright.config.JoinType;
import dev.tablewright.config.SortDirection;
import dev.tablewright.reference.FilterOperator;
import dev.tablewright.schema.TableInfo;

import java.util.List;

/**
 * A config whose every name was found in the live catalogue ({@link ConfigGrounder}): the base table, each join
 * with the foreign key it follows, the result columns, and the filters and sorts bound to result columns with their
 * values checked against the operator. {@link SqlCompiler} emits SQL from this and nothing else.
 */
public record GroundedConfig(Source base, List<Join> joins, List<ResultColumn> columns, List<FilterOn> filters,
                             List<SortOn> sorts) {

    public GroundedConfig {
        joins = List.copyOf(joins);
        columns = List.copyOf(columns);
        filters = List.copyOf(filters);
        sorts = List.copyOf(sorts);
    }

    /** A table of the query under its SQL alias. */
    public record Source(String alias, TableInfo table) {
    }

    /** One column pair of the foreign key a join follows: the other (earlier) table's column, the joined table's. */
    public record KeyPair(String otherColumn, String joinedColumn) {
    }

    public record Join(JoinType type, Source joined, Source other, List<KeyPair> keyPairs) {
        public Join {
            keyPairs = List.copyOf(keyPairs);
        }
    }

    /** A filter on a result column; {@code field} is its path in the config, for errors PostgreSQL reports. */
    public record FilterOn(String field, ResultColumn column, FilterOperator operator, List<String> values) {
        public FilterOn {
            values = List.copyOf(values);
        }
    }

    public record SortOn(String field, ResultColumn column, SortDirection direction) {
    }
}
