package dev.tablewright.systemtest.configs;

import dev.tablewright.functions.configs.ConfigServices;
import dev.tablewright.systemtest.http.InProcessHttpApi;

/** The config and preview routes of template.yaml, served in-process around one {@link ConfigServices}. */
final class ConfigRoutes extends InProcessHttpApi {

    ConfigRoutes(ConfigServices services) {
        super("dev.tablewright.functions.configs.", ConfigServices.class, services, "config");
    }
}
