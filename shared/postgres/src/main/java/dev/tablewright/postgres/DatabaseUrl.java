package dev.tablewright.postgres;

import java.net.URI;
import java.net.URISyntaxException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.Properties;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Where a PostgreSQL database is: a JDBC URL plus, separately, user and password. Accepts a JDBC URL
 * ({@code jdbc:postgresql://host:5432/db?user=u}) or a libpq-style URL ({@code postgres://u:p@host:5432/db}).
 * {@link #toString()} never shows the password.
 */
public record DatabaseUrl(String jdbcUrl, String user, String password) {

    public static final String ENV = "DATABASE_URL";
    public static final String DEFAULT = "jdbc:postgresql://127.0.0.1:5432/test?user=postgres";

    private static final Pattern JDBC = Pattern.compile("^jdbc:postgresql://([^/?]*)/([^?]*)(\\?.*)?$");
    private static final Pattern PASSWORD_PARAM = Pattern.compile("(?i)(password=)[^&]*");

    public DatabaseUrl {
        if (jdbcUrl == null || !jdbcUrl.startsWith("jdbc:postgresql:")) {
            throw new IllegalArgumentException("not a PostgreSQL URL (expected jdbc:postgresql://... or postgres://...)");
        }
    }

    /** {@code DATABASE_URL}, else the local default. */
    public static DatabaseUrl fromEnvironment() {
        String value = System.getenv(ENV);
        return parse(value == null || value.isBlank() ? DEFAULT : value.trim());
    }

    public static DatabaseUrl parse(String url) {
        if (url == null || url.isBlank()) {
            throw new IllegalArgumentException("database URL is empty");
        }
        if (url.startsWith("jdbc:")) {
            return new DatabaseUrl(url, null, null);
        }
        if (!url.startsWith("postgres://") && !url.startsWith("postgresql://")) {
            throw new IllegalArgumentException("not a PostgreSQL URL (expected jdbc:postgresql://... or postgres://...)");
        }
        try {
            URI uri = new URI(url);
            String user = null;
            String password = null;
            if (uri.getRawUserInfo() != null) {
                String[] parts = uri.getRawUserInfo().split(":", 2);
                user = decode(parts[0]);
                password = parts.length > 1 ? decode(parts[1]) : null;
            }
            String host = uri.getHost() == null ? "127.0.0.1" : uri.getHost();
            int port = uri.getPort() < 0 ? 5432 : uri.getPort();
            String path = uri.getRawPath() == null || uri.getRawPath().length() <= 1 ? "/postgres" : uri.getRawPath();
            String query = uri.getRawQuery() == null ? "" : "?" + uri.getRawQuery();
            return new DatabaseUrl("jdbc:postgresql://" + host + ":" + port + path + query, user, password);
        } catch (URISyntaxException e) {
            throw new IllegalArgumentException("database URL is not a valid URL");
        }
    }

    /** For Secrets Manager's RDS secret: host, port, dbname, username, password. */
    public static DatabaseUrl of(String host, int port, String database, String user, String password) {
        return new DatabaseUrl("jdbc:postgresql://" + host + ":" + port + "/" + database, user, password);
    }

    /**
     * One JDBC URL carrying the user and password as parameters (what {@link #parse} reads back whole): for handing
     * the database on through a single variable, e.g. {@code DATABASE_URL}. Never log it.
     */
    public String jdbcUrlWithCredentials() {
        StringBuilder url = new StringBuilder(jdbcUrl);
        char separator = jdbcUrl.contains("?") ? '&' : '?';
        if (user != null && !jdbcUrl.matches("(?i).*[?&]user=.*")) {
            url.append(separator).append("user=").append(java.net.URLEncoder.encode(user, StandardCharsets.UTF_8));
            separator = '&';
        }
        if (password != null && !jdbcUrl.matches("(?i).*[?&]password=.*")) {
            url.append(separator).append("password=").append(java.net.URLEncoder.encode(password, StandardCharsets.UTF_8));
        }
        return url.toString();
    }

    /** The same server, another database. */
    public DatabaseUrl withDatabase(String database) {
        Matcher m = JDBC.matcher(jdbcUrl);
        if (!m.matches()) {
            throw new IllegalArgumentException("cannot change the database of this URL");
        }
        String query = m.group(3) == null ? "" : m.group(3);
        return new DatabaseUrl("jdbc:postgresql://" + m.group(1) + "/" + database + query, user, password);
    }

    /** The database name in the URL. */
    public String database() {
        Matcher m = JDBC.matcher(jdbcUrl);
        return m.matches() ? m.group(2) : "";
    }

    public Connection connect() throws SQLException {
        return connect(new Properties());
    }

    public Connection connect(Properties extra) throws SQLException {
        Properties props = new Properties();
        props.putAll(extra);
        if (user != null) {
            props.setProperty("user", user);
        }
        if (password != null) {
            props.setProperty("password", password);
        }
        props.putIfAbsent("ApplicationName", "tablewright");
        props.putIfAbsent("connectTimeout", "10");
        return DriverManager.getConnection(jdbcUrl, props);
    }

    @Override
    public String toString() {
        return PASSWORD_PARAM.matcher(jdbcUrl).replaceAll("$1***") + (user == null ? "" : " (user " + user + ")");
    }

    private static String decode(String s) {
        return URLDecoder.decode(s, StandardCharsets.UTF_8);
    }
}
