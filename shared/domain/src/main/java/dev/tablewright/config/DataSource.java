package dev.tablewright.config;

import com.fasterxml.jackson.databind.JsonNode;

import java.util.List;
import java.util.Map;

/** A data source: base table ({@code schema}, {@code source}), its selection, filters and sort. */
public record DataSource(String schema, String source, Select select, List<Filter> filters, List<Sort> sort,
                         Map<String, JsonNode> extra) {
    public DataSource {
        extra = Extras.copy(extra);
    }
}
