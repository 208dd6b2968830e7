package dev.tablewright.checks.template;

import dev.tablewright.fakes.template.SamTemplate;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What a team running the stack needs of template.yaml beyond working code (the checks the serverless rules make):
 * every function's logs kept for a set time, the HTTP API's access logs and throttling, and the data users cannot
 * recreate kept when the stack goes.
 */
class TemplateOperationsTest {

    static SamTemplate template;

    @BeforeAll
    static void load() throws IOException {
        template = SamTemplate.load(SamTemplate.locate());
    }

    static Map<String, Object> resource(String id) {
        Map<String, Object> r = SamTemplate.map(SamTemplate.map(template.section("Resources")).get(id));
        assertNotNull(r.get("Type"), "no resource " + id);
        return r;
    }

    /** A log group resource named by a Ref, whose retention is the LogRetentionDays parameter. */
    static void assertRetainedLogGroup(Object ref, String owner) {
        assertTrue(ref instanceof SamTemplate.Intrinsic, owner + ": " + ref);
        SamTemplate.Intrinsic i = (SamTemplate.Intrinsic) ref;
        String id = String.valueOf(i.argument()).split("\\.")[0];
        if (i.function().equals("GetAtt") && i.argument() instanceof List<?> l) {
            id = String.valueOf(l.getFirst());
        }
        Map<String, Object> group = resource(id);
        assertEquals("AWS::Logs::LogGroup", group.get("Type"), owner);
        Object retention = SamTemplate.map(group.get("Properties")).get("RetentionInDays");
        assertEquals(new SamTemplate.Intrinsic("Ref", "LogRetentionDays"), retention, owner + " keeps its logs LogRetentionDays");
    }

    @Test
    void everyFunctionLogsIntoALogGroupWithARetention() {
        List<String> functions = new ArrayList<>(template.resourcesOfType("AWS::Serverless::Function").keySet());
        assertTrue(functions.size() > 30, functions.toString());
        for (String id : functions) {
            Map<String, Object> logging = SamTemplate.map(template.functionProperties(id).get("LoggingConfig"));
            assertRetainedLogGroup(logging.get("LogGroup"), id);
        }
        assertTrue(SamTemplate.map(template.section("Parameters")).containsKey("LogRetentionDays"));
    }

    @Test
    void theHttpApiHasAccessLogsAndThrottling() {
        Map<String, Object> api = SamTemplate.map(resource("HttpApi").get("Properties"));
        Map<String, Object> access = SamTemplate.map(api.get("AccessLogSettings"));
        assertRetainedLogGroup(access.get("DestinationArn"), "HttpApi access logs");
        assertTrue(String.valueOf(access.get("Format")).contains("$context.requestId"), "access log format");
        Map<String, Object> throttling = SamTemplate.map(api.get("DefaultRouteSettings"));
        assertEquals(new SamTemplate.Intrinsic("Ref", "ApiThrottlingRateLimit"), throttling.get("ThrottlingRateLimit"));
        assertEquals(new SamTemplate.Intrinsic("Ref", "ApiThrottlingBurstLimit"), throttling.get("ThrottlingBurstLimit"));
    }

    @Test
    void whatUsersCannotRecreateIsRetainedWhenTheStackGoesUnlessTheStackOptsOut() {
        SamTemplate.Intrinsic retainUnlessOptedOut = new SamTemplate.Intrinsic("If", List.of("RetainData", "Retain", "Delete"));
        for (String id : List.of("ConfigsTable", "ConversationsTable", "UserPool")) {
            Map<String, Object> r = resource(id);
            assertEquals(retainUnlessOptedOut, r.get("DeletionPolicy"), id);
            assertEquals(retainUnlessOptedOut, r.get("UpdateReplacePolicy"), id);
        }
        assertEquals("true", template.parameterDefaults().get("RetainDataOnDelete"), "retained by default");
        assertEquals(new SamTemplate.Intrinsic("Equals", List.of(new SamTemplate.Intrinsic("Ref", "RetainDataOnDelete"), "true")),
                SamTemplate.map(template.section("Conditions")).get("RetainData"));
        // an !If in DeletionPolicy is resolved by the LanguageExtensions transform, which must run before SAM's
        assertEquals(List.of("AWS::LanguageExtensions", "AWS::Serverless-2016-10-31"), template.root().get("Transform"));
    }

    @Test
    void logsAreJsonFilteredAtTheLogLevelParameter() {
        Map<String, Object> logging = SamTemplate.map(SamTemplate.map(SamTemplate.map(template.section("Globals")).get("Function")).get("LoggingConfig"));
        assertEquals("JSON", logging.get("LogFormat"));
        assertEquals(new SamTemplate.Intrinsic("Ref", "LogLevel"), logging.get("ApplicationLogLevel"));
        assertEquals("INFO", template.parameterDefaults().get("LogLevel"));
    }

    @Test
    void theSecretsExtensionLayerResolvesPerRegionAndOnlyWhereASecretIsRead() {
        Map<String, Object> mapping = SamTemplate.map(SamTemplate.map(template.section("Mappings")).get("SecretsExtensionArm64"));
        for (String region : List.of("us-east-1", "eu-west-1", "ap-southeast-2")) {
            String arn = String.valueOf(SamTemplate.map(mapping.get(region)).get("Arn"));
            assertTrue(arn.startsWith("arn:aws:lambda:" + region + ":") && arn.contains(":layer:AWS-Parameters-and-Secrets-Lambda-Extension-Arm64:"),
                    region + " → " + arn);
        }
        assertEquals("", template.parameterDefaults().get("SecretsExtensionLayerArn"), "no region's ARN as the default");
        int withLayers = 0;
        for (String id : template.resourcesOfType("AWS::Serverless::Function").keySet()) {
            Object layers = template.functionProperties(id).get("Layers");
            if (layers == null) {
                continue;
            }
            withLayers++;
            assertTrue(layers instanceof SamTemplate.Intrinsic i && i.function().equals("If")
                    && String.valueOf(SamTemplate.list(i.argument()).getFirst()).equals("UsesDatabaseSecret"),
                    id + ": the layer only when a database secret is used: " + layers);
        }
        assertTrue(withLayers > 0);
    }
}

