package dev.tablewright.systemtest.runtime;

import java.io.IOException;
import java.io.OutputStream;
import java.net.URISyntaxException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;

/** Packs compiled test classes (with their nested classes) into a jar for a function's {@code lib/}. */
final class SideJar {

    private SideJar() {
    }

    static Path of(String name, Class<?>... classes) throws IOException {
        // a new file each time: a process of an earlier test, still going down, may hold the last one open, and a jar
        // rewritten in place under a starting JVM can be read half-written
        Path jar = Files.createTempFile(Path.of("target").toAbsolutePath(), name + "-", ".jar");
        try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(jar))) {
            for (Class<?> type : classes) {
                Path classFile;
                try {
                    classFile = Path.of(type.getResource(type.getSimpleName() + ".class").toURI());
                } catch (URISyntaxException e) {
                    throw new IOException(e);
                }
                String packagePath = type.getPackageName().replace('.', '/') + "/";
                try (DirectoryStream<Path> files = Files.newDirectoryStream(classFile.getParent(), type.getSimpleName() + "{,$*}.class")) {
                    for (Path file : files) {
                        out.putNextEntry(new JarEntry(packagePath + file.getFileName()));
                        Files.copy(file, (OutputStream) out);
                        out.closeEntry();
                    }
                }
            }
        }
        return jar;
    }
}
