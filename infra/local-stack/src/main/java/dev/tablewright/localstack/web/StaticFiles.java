package dev.tablewright.localstack.web;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * The files of a built web page (a Vite {@code dist} directory), looked up by request path. Only regular files
 * under the root are ever found: {@code ..}, absolute and otherwise odd paths find nothing, so the gateway answers
 * them with its plain 404.
 */
public final class StaticFiles {

    /** A file to send, with its content type. */
    public record Found(Path file, String contentType) {
        public byte[] bytes() throws IOException {
            return Files.readAllBytes(file);
        }
    }

    private static final Map<String, String> TYPES = Map.of(
            "html", "text/html; charset=utf-8",
            "js", "text/javascript; charset=utf-8",
            "css", "text/css; charset=utf-8",
            "json", "application/json",
            "svg", "image/svg+xml",
            "png", "image/png",
            "ico", "image/x-icon",
            "map", "application/json");

    private final Path root;

    public StaticFiles(Path root) {
        this.root = root.toAbsolutePath().normalize();
    }

    public Path root() {
        return root;
    }

    /** Whether the page is there at all (built). */
    public boolean hasIndex() {
        return Files.isRegularFile(root.resolve("index.html"));
    }

    /** The file for a decoded request path ({@code /} is index.html), if it is one under the root. */
    public Optional<Found> find(String path) {
        if (path == null || !path.startsWith("/") || path.indexOf('\\') >= 0 || path.indexOf('\0') >= 0) {
            return Optional.empty();
        }
        String relative = path.equals("/") ? "index.html" : path.substring(1);
        Path file;
        try {
            file = root.resolve(relative).normalize();
        } catch (InvalidPathException e) {
            return Optional.empty();
        }
        if (!file.startsWith(root) || file.equals(root) || !Files.isRegularFile(file)) {
            return Optional.empty();
        }
        String name = file.getFileName().toString();
        String extension = name.substring(name.lastIndexOf('.') + 1).toLowerCase(Locale.ROOT);
        return Optional.of(new Found(file, TYPES.getOrDefault(extension, "application/octet-stream")));
    }
}
