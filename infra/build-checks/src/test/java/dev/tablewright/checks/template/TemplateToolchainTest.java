package dev.tablewright.checks.template;

import dev.tablewright.fakes.template.SamTemplate;

import com.fasterxml.jackson.databind.JsonNode;
import dev.tablewright.json.Json;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * template.yaml through the tools that deploy it: cfn-lint (with the SAM transform) finds nothing, and the SAM
 * translator's output is what a team expects of it: the VPC access policy only where subnets are given, and on no
 * role at all with the default parameters. Both tools come with cfn-lint (pip); CI has them and sets CI=true, which
 * makes their absence a failure rather than a skip.
 */
class TemplateToolchainTest {

    static final Path ROOT = SamTemplate.locate().getParent();
    static final Path TEMPLATE = ROOT.resolve("template.yaml");
    static JsonNode translated;

    record Run(int exit, String output) {
    }

    static Run run(List<String> command) throws IOException, InterruptedException {
        Process p;
        try {
            p = new ProcessBuilder(command).redirectErrorStream(false).start();
        } catch (IOException e) {
            return missing(command.getFirst() + " is not installed (it comes with pip install cfn-lint)");
        }
        String out = new String(p.getInputStream().readAllBytes());
        String err = new String(p.getErrorStream().readAllBytes());
        if (!p.waitFor(3, TimeUnit.MINUTES)) {
            p.destroyForcibly();
            throw new IOException(command + " did not finish");
        }
        return new Run(p.exitValue(), p.exitValue() == 0 ? out : out + err);
    }

    static Run missing(String why) {
        if ("true".equals(System.getenv("CI"))) {
            throw new AssertionError(why);
        }
        Assumptions.abort(why);
        return null;
    }

    @BeforeAll
    static void translate() throws Exception {
        Path script = Path.of(TemplateToolchainTest.class.getResource("/template/sam-translate.py").toURI());
        Run probe = run(List.of("python3", "-c", "import samtranslator"));
        if (probe.exit() != 0) {
            missing("the SAM translator is not installed (python3 -c 'import samtranslator'): " + probe.output());
        }
        ProcessBuilder pb = new ProcessBuilder("python3", script.toString(), TEMPLATE.toString());
        pb.environment().put("AWS_DEFAULT_REGION", "us-east-1");
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes());
        String err = new String(p.getErrorStream().readAllBytes());
        assertEquals(0, p.waitFor(), "SAM translator:\n" + err);
        translated = Json.MAPPER.readTree(out);
    }

    @Test
    void cfnLintFindsNothing() throws Exception {
        Run lint = run(List.of("cfn-lint", TEMPLATE.toString()));
        assertEquals(0, lint.exit(), "cfn-lint template.yaml:\n" + lint.output());
    }

    @Test
    void theVpcAccessPolicyIsAttachedOnlyWhenSubnetsAreGiven() {
        List<String> conditional = new ArrayList<>();
        for (Map.Entry<String, JsonNode> r : translated.get("Resources").properties()) {
            if (!r.getValue().path("Type").asText().equals("AWS::IAM::Role")) {
                continue;
            }
            for (JsonNode arn : r.getValue().path("Properties").path("ManagedPolicyArns")) {
                if (!arn.toString().contains("AWSLambdaVPCAccessExecutionRole")) {
                    continue;
                }
                JsonNode when = arn.path("Fn::If");
                assertTrue(when.isArray() && when.get(0).asText().equals("DatabaseInVpc"),
                        r.getKey() + " gets the VPC access policy whatever DatabaseSubnetIds says: " + arn);
                conditional.add(r.getKey());
            }
        }
        assertEquals(List.of("DataSourceToolRole", "PreviewToolRole"), conditional.stream().sorted().toList());
        // and every function placed in the VPC runs under one of those roles
        for (Map.Entry<String, JsonNode> r : translated.get("Resources").properties()) {
            JsonNode props = r.getValue().path("Properties");
            if (r.getValue().path("Type").asText().equals("AWS::Lambda::Function") && props.has("VpcConfig")) {
                String role = props.path("Role").path("Fn::GetAtt").path(0).asText();
                assertTrue(conditional.contains(role), r.getKey() + " runs in the VPC under " + props.path("Role"));
            }
        }
    }
}
