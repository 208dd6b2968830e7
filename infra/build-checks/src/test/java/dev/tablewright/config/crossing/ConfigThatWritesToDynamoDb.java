package dev.tablewright.config.crossing;

import dev.tablewright.dynamodb.DynamoConfigStore;

/** A domain class that reaches into an adapter: what {@code LayersTest} must refuse (used only by its self-check). */
public final class ConfigThatWritesToDynamoDb {
    public Class<?> store() {
        return DynamoConfigStore.class;
    }
}
