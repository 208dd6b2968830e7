package dev.tablewright.sql;

import java.util.List;
import java.util.Optional;

/** The configured data sources, by name ({@code production}, {@code staging}, or just {@code default}). */
public interface Databases {

    /** The names, in configuration order; never empty. */
    List<String> names();

    Optional<Database> find(String name);
}
