package dev.tablewright.tools;

import dev.tablewright.catalogue.OperationToolDefinitions;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tablewright.json.Json;
import dev.tablewright.reference.PgTypeMapping;
import dev.tablewright.reference.TypeReference;
import dev.tablewright.toolcontract.Tool;
import dev.tablewright.toolcontract.ToolArguments;
import dev.tablewright.toolcontract.ToolDefinition;
import dev.tablewright.toolcontract.ToolInvocation;
import dev.tablewright.toolcontract.ToolOutcome;

import java.util.List;

/**
 * {@code discover_table_reference}: the static type reference (PostgreSQL type → visual type, the format options of
 * each visual type, the filter operators valid for each). With {@code pg_types}, also maps those types.
 */
public final class DiscoverTableReferenceTool implements Tool {

    @Override
    public ToolDefinition definition() {
        return OperationToolDefinitions.DISCOVER_TABLE_REFERENCE;
    }

    @Override
    public ToolOutcome execute(ToolInvocation invocation) {
        ToolArguments args = ToolArguments.of(invocation);
        List<String> types = args.list("pg_types", false, 100, (item, path) -> {
            if (item == null || !item.isTextual() || item.textValue().length() > 200) {
                args.errorAt(path, "expected a PostgreSQL type name (a string of at most 200 characters)");
                return null;
            }
            return item.textValue();
        });
        if (!args.ok()) {
            ObjectNode out = Json.object();
            ArrayNode errors = out.putArray("errors");
            args.errors().forEach(e -> errors.addObject().put("field", e.field()).put("message", e.message()));
            return ToolOutcome.ok(out);
        }
        ObjectNode doc = TypeReference.document();
        if (types != null) {
            ObjectNode mapped = doc.putObject("mapped");
            for (String t : types) {
                PgTypeMapping m = PgTypeMapping.of(t);
                ObjectNode o = mapped.putObject(t);
                o.put("visual_type", m.visualType().wireName());
                if (m.elementType() != null) {
                    o.put("element_type", m.elementType().wireName());
                }
                if (m.warning() != null) {
                    o.put("warning", m.warning());
                }
            }
        }
        return ToolOutcome.ok(doc);
    }
}
