package dev.tablewright.localstack.invoke;

import com.fasterxml.jackson.databind.JsonNode;
import dev.tablewright.json.Json;
import dev.tablewright.lambda.Env;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The invoke CLI on a template of its own (handler, Globals, environment resolution, stdin, errors). */
class InvokeCommandTest {

    @TempDir
    Path dir;

    @AfterEach
    void clearEnv() {
        Env.clearOverrides();
    }

    record Run(int status, String out, String err) {
        JsonNode json() throws Exception {
            return Json.parse(out);
        }
    }

    Run run(String stdin, String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int status = InvokeCommand.run(args, new ByteArrayInputStream(stdin.getBytes(StandardCharsets.UTF_8)),
                new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
        return new Run(status, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    Path template() throws Exception {
        Path file = dir.resolve("template.yaml");
        Files.writeString(file, """
                Parameters:
                  Stage: {Type: String, Default: dev}
                Globals:
                  Function:
                    MemorySize: 512
                    Environment:
                      Variables:
                        STAGE: !Ref Stage
                Resources:
                  ThingsTable:
                    Type: AWS::DynamoDB::Table
                  EchoFunction:
                    Type: AWS::Serverless::Function
                    Properties:
                      Handler: dev.tablewright.localstack.invoke.EchoEnvironmentHandler::handleRequest
                      Environment:
                        Variables:
                          TABLE: !Ref ThingsTable
                          ARN: !GetAtt ThingsTable.Arn
                """);
        return file;
    }

    @Test
    void runsTheHandlerWithTheTemplatesEnvironmentAndAnEventFile() throws Exception {
        Path event = dir.resolve("event.json");
        Files.writeString(event, "{\"name\": \"warehouse\"}");
        Run run = run("", "EchoFunction", "--event", event.toString(), "--template", template().toString());
        assertEquals(0, run.status(), run.err());
        JsonNode answer = run.json();
        assertEquals("warehouse", answer.at("/input/name").asText());
        assertEquals("dev", answer.path("stage").asText());
        assertEquals("ThingsTable", answer.path("table").asText());
        assertEquals("EchoFunction", answer.path("function").asText());
        assertEquals(512, answer.path("memory").asInt());
        assertTrue(run.err().contains("ARN"), "unresolved variables are named: " + run.err());
    }

    @Test
    void readsTheEventFromStdinAndLetsEnvOptionsWin() throws Exception {
        Run run = run("{\"name\": \"bin\"}", "EchoFunction", "--template", template().toString(), "--env", "STAGE=prod", "--compact");
        assertEquals(0, run.status(), run.err());
        assertEquals("{\"input\":{\"name\":\"bin\"},\"stage\":\"prod\",\"table\":\"ThingsTable\",\"function\":\"EchoFunction\",\"memory\":512}",
                run.out().strip());
    }

    @Test
    void aFailingHandlerIsReportedLikeLambda() throws Exception {
        Run run = run("{\"do\": \"fail\"}", "EchoFunction", "--template", template().toString());
        assertEquals(1, run.status());
        JsonNode error = run.json();
        assertEquals("java.lang.IllegalArgumentException", error.path("errorType").asText());
        assertEquals("asked to fail", error.path("errorMessage").asText());
    }

    @Test
    void unknownFunctionsAndBadOptionsAreExplained() throws Exception {
        Run unknown = run("{}", "NoSuchFunction", "--template", template().toString());
        assertEquals(2, unknown.status());
        assertTrue(unknown.err().contains("EchoFunction"), unknown.err());
        Run bad = run("{}", "EchoFunction", "--frobnicate");
        assertEquals(2, bad.status());
        assertTrue(bad.err().contains("usage"), bad.err());
        Run missing = run("{}", "EchoFunction", "--event", dir.resolve("nope.json").toString(), "--template", template().toString());
        assertEquals(2, missing.status());
    }
}
