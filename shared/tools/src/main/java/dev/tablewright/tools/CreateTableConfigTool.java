package dev.tablewright.tools;

import dev.tablewright.catalogue.ConfigStoreToolDefinitions;
import com.fasterxml.jackson.databind.JsonNode;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tablewright.config.TableConfig;
import dev.tablewright.configstore.ConfigStore;
import dev.tablewright.configstore.StoredConfigJson;
import dev.tablewright.toolcontract.ToolArguments;

import java.time.Clock;

/** {@code create_table_config}: saves a new config as its version 1 under a fresh id. */
public final class CreateTableConfigTool extends ConfigStoreTool {

    private final Clock clock;

    public CreateTableConfigTool(ConfigStore configs, Clock clock) {
        super(ConfigStoreToolDefinitions.CREATE_TABLE_CONFIG, configs);
        this.clock = clock;
    }

    @Override
    protected JsonNode answer(String owner, ToolArguments args, String callKey) {
        TableConfig config = validConfig(args, "config");
        if (config.name() == null || config.name().isBlank()) {
            throw new BadArguments("name", "a new config needs a name (unique among the user's configs)");
        }
        ObjectNode out = StoredConfigJson.config(create(owner, config, callKey));
        out.put("created", true);
        return out;
    }

    /** Once per call: the same call run again (a retried Invoke) answers the config it created. */
    private dev.tablewright.configstore.StoredConfig create(String owner, TableConfig config, String callKey) {
        return callKey == null ? configs.create(owner, config, clock.instant())
                : configs.create(owner, config, clock.instant(), callKey);
    }
}
