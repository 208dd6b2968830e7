package dev.tablewright.checks.template;

import dev.tablewright.fakes.template.SamTemplate;

import org.yaml.snakeyaml.DumperOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.Tag;
import org.yaml.snakeyaml.representer.Represent;
import org.yaml.snakeyaml.representer.Representer;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/** Writes a (mutated) template back to YAML with its short-form intrinsics, for the template check's own tests. */
final class TemplateYamlWriter {

    private TemplateYamlWriter() {
    }

    static Path write(Map<String, Object> root, Path file) throws IOException {
        DumperOptions options = new DumperOptions();
        options.setDefaultFlowStyle(DumperOptions.FlowStyle.BLOCK);
        Files.writeString(file, new Yaml(new IntrinsicRepresenter(options), options).dump(root));
        return file;
    }

    private static final class IntrinsicRepresenter extends Representer {
        IntrinsicRepresenter(DumperOptions options) {
            super(options);
            this.representers.put(SamTemplate.Intrinsic.class, new Represent() {
                @Override
                public Node representData(Object data) {
                    SamTemplate.Intrinsic i = (SamTemplate.Intrinsic) data;
                    Tag tag = new Tag("!" + i.function());
                    if (i.argument() instanceof List<?> l) {
                        return representSequence(tag, l, DumperOptions.FlowStyle.FLOW);
                    }
                    if (i.argument() instanceof Map<?, ?> m) {
                        return representMapping(tag, m, DumperOptions.FlowStyle.FLOW);
                    }
                    return representScalar(tag, String.valueOf(i.argument()));
                }
            });
        }
    }
}
