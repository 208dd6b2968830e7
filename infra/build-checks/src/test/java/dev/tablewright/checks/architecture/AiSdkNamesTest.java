package dev.tablewright.checks.architecture;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

/**
 * The AI SDK's names for what the agent does (its custom {@code data-*} parts, {@code messageMetadata}, the
 * {@code regenerate-message} trigger, the chunk types) are written in one module, the AI SDK adapter: no other
 * production source spells them, so a second door never has to fake the first one's protocol.
 */
class AiSdkNamesTest {

    static final Pattern AI_SDK_NAMES = Pattern.compile("\"data-|messageMetadata|regenerate-message|\"text-delta\"|"
            + "\"tool-input-available\"|\"tool-output-available\"|\"finish-step\"|x-vercel-ai-ui-message-stream|"
            + "\"table-config-preview\"|\"user-input-request\"|\"validation-errors\"|\"editable-field-update\"");

    @Test
    void onlyTheAiSdkAdapterSpellsTheProtocolsNames() throws IOException {
        Path root = dev.tablewright.fakes.template.SamTemplate.locate().getParent();
        List<String> elsewhere = new ArrayList<>();
        List<String> inAdapter = new ArrayList<>();
        for (String tree : List.of("shared", "functions")) {
            try (Stream<Path> files = Files.walk(root.resolve(tree))) {
                for (Path file : files.filter(f -> f.toString().endsWith(".java") && f.toString().contains("/src/main/")).toList()) {
                    String source = Files.readString(file);
                    if (AI_SDK_NAMES.matcher(source).find()) {
                        (file.startsWith(root.resolve("shared/aisdk")) ? inAdapter : elsewhere).add(root.relativize(file).toString());
                    }
                }
            }
        }
        assertFalse(inAdapter.isEmpty(), "the adapter spells them: the scan read the sources");
        assertEquals(List.of(), elsewhere, "AI SDK names outside shared/aisdk");
    }
}
