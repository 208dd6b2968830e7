package dev.tablewright.postgres;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

class DatabaseUrlTest {

    @Test
    void jdbcUrlsPassThrough() {
        DatabaseUrl url = DatabaseUrl.parse(DatabaseUrl.DEFAULT);
        assertEquals(DatabaseUrl.DEFAULT, url.jdbcUrl());
        assertEquals("test", url.database());
        assertEquals("jdbc:postgresql://127.0.0.1:5432/other?user=postgres", url.withDatabase("other").jdbcUrl());
    }

    @Test
    void libpqUrlsBecomeJdbcWithCredentialsApart() {
        DatabaseUrl url = DatabaseUrl.parse("postgres://app:s%3Acret@db.internal:6543/shop?sslmode=require");
        assertEquals("jdbc:postgresql://db.internal:6543/shop?sslmode=require", url.jdbcUrl());
        assertEquals("app", url.user());
        assertEquals("s:cret", url.password());
    }

    @Test
    void neverShowsThePassword() {
        assertFalse(DatabaseUrl.parse("postgres://app:hunter2@h/db").toString().contains("hunter2"));
        assertFalse(DatabaseUrl.parse("jdbc:postgresql://h/db?user=a&password=hunter2").toString().contains("hunter2"));
    }

    @Test
    void refusesOtherSchemes() {
        assertThrows(IllegalArgumentException.class, () -> DatabaseUrl.parse("mysql://h/db"));
        assertThrows(IllegalArgumentException.class, () -> DatabaseUrl.parse(""));
    }
}
