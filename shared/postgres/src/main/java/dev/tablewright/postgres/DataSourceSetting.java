package dev.tablewright.postgres;

import java.util.List;

/**
 * One named data source: reached through a URL (local, CI) or a Secrets Manager secret in the RDS format (AWS),
 * with the schemas the assistant may see. Exactly one of {@code url} and {@code secretId} is set.
 */
public record DataSourceSetting(String name, String url, String secretId, List<String> schemas) {
    public DataSourceSetting {
        if ((url == null) == (secretId == null)) {
            throw new IllegalArgumentException("data source '" + name + "' needs exactly one of url and secret");
        }
        if (!name.matches("[a-z][a-z0-9_-]{0,39}")) {
            throw new IllegalArgumentException("data source name '" + name + "' must be lower-case letters, digits, - or _");
        }
        schemas = List.copyOf(schemas);
    }

    /** Never the URL: it may carry a password. */
    @Override
    public String toString() {
        return "DataSourceSetting[" + name + (secretId != null ? ", secret " + secretId : ", url") + ", schemas " + schemas + "]";
    }
}
