package dev.tablewright.fakes.configs;

import dev.tablewright.codec.ConfigJson;
import dev.tablewright.config.TableConfig;

/** Configs for the config-store suites: the design doc's example, renamed and varied per call. */
public final class SampleConfigs {
    private SampleConfigs() {
    }

    public static final String ORDERS = """
            {"name": "Active orders", "description": "Orders still open",
             "data_source": [{"schema": "sales", "source": "orders",
               "select": {"columns": [{"name": "id"}, {"name": "created_at"}, {"name": "status"}]},
               "filters": [{"column": "status", "operator": "eq", "value": "open", "label": "Open only"}],
               "sort": [{"column": "created_at", "direction": "desc"}]}],
             "visual_settings": {"page_size": 25, "columns": {
               "id": {"header": "ID", "type": "number", "order": 1},
               "created_at": {"header": "Created", "type": "datetime", "format": "yyyy-MM-dd HH:mm", "order": 2},
               "status": {"type": "string", "hidden": true}}},
             "client_note": "kept through every round trip"}
            """;

    /**
     * The arguments of an {@code apply_column_change} that starts a table over the sample database's stock levels with
     * two columns: a scripted model's first call in the conversation suites. Its name is {@code "Stock %d"}: format it
     * with a number, or replace the quoted name.
     */
    public static final String STOCK_COLUMNS_CHANGE = """
            {"config": {"name": "Stock %d", "data_source": [{"schema": "inventory", "source": "stock_levels",
              "select": {"columns": []}}], "visual_settings": {"columns": {}}},
             "operation": "add", "columns": [{"name": "item_id", "pg_type": "integer"}, {"name": "quantity", "pg_type": "integer"}]}""";

    public static TableConfig orders(String name) {
        try {
            TableConfig base = ConfigJson.readWritten(ORDERS);
            return new TableConfig(null, name, base.description(), null, base.dataSource(), base.visualSettings(), base.extra());
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    /** The same config with another description, so versions can be told apart. */
    public static TableConfig describe(TableConfig config, String description) {
        return new TableConfig(config.id(), config.name(), description, config.version(), config.dataSource(),
                config.visualSettings(), config.extra());
    }

    public static TableConfig rename(TableConfig config, String name) {
        return new TableConfig(config.id(), name, config.description(), config.version(), config.dataSource(),
                config.visualSettings(), config.extra());
    }
}
