package dev.tablewright.postgres;

import java.sql.Connection;
import java.sql.SQLException;

/** Opens a new connection to one data source (credentials resolved by the implementation, never logged). */
@FunctionalInterface
public interface ConnectionSource {
    Connection open() throws SQLException;
}
