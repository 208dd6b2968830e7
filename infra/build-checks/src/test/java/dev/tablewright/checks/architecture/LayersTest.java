package dev.tablewright.checks.architecture;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.CompositeArchRule;
import com.tngtech.archunit.lang.EvaluationResult;
import dev.tablewright.config.crossing.ConfigThatWritesToDynamoDb;
import org.junit.jupiter.api.Test;

import java.util.List;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.Architectures.layeredArchitecture;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The layers of the tree, as docs/architecture.md draws them. The Maven modules already refuse most crossings (a
 * module sees only the modules it declares); this test also covers what a module boundary cannot: package cycles
 * inside a module, and the domain using a platform library that reaches it through a dependency.
 */
class LayersTest {

    static final String[] DOMAIN = {"dev.tablewright.codec..", "dev.tablewright.config..", "dev.tablewright.configstore..",
            "dev.tablewright.conversation..", "dev.tablewright.editable..", "dev.tablewright.failure..", "dev.tablewright.grounding..", "dev.tablewright.id..",
            "dev.tablewright.operations..", "dev.tablewright.preview..", "dev.tablewright.reference..", "dev.tablewright.schema..",
            "dev.tablewright.sql..", "dev.tablewright.store..", "dev.tablewright.toolcontract..", "dev.tablewright.userinput..",
            "dev.tablewright.validation..", "dev.tablewright.mcpsession.."};

    /** The modules of infra: they may use every production layer; nothing deployed may use them. */
    static final String[] DEVELOPMENT = {"Fakes", "Local stack", "Evaluation", "Benchmarks", "Build checks"};

    /** The given production layers and every development one. */
    private static String[] above(String... layers) {
        return java.util.stream.Stream.concat(java.util.Arrays.stream(layers), java.util.Arrays.stream(DEVELOPMENT)).toArray(String[]::new);
    }

    static final ArchRule LAYERS = layeredArchitecture().consideringOnlyDependenciesInLayers()
            .layer("JSON").definedBy("dev.tablewright.json..")
            .layer("Logging").definedBy("dev.tablewright.logging..")
            .layer("Domain").definedBy(DOMAIN)
            .layer("Tool catalogue").definedBy("dev.tablewright.catalogue..")
            .layer("Tools").definedBy("dev.tablewright.tools..")
            .layer("Agent").definedBy("dev.tablewright.agent..")
            .layer("HTTP stream").definedBy("dev.tablewright.http..")
            // what every door needs, protocol-neutral (the conversation session, the recorded turn, the refusals)
            .layer("Door kit").definedBy("dev.tablewright.door..")
            .layer("Protocols").definedBy("dev.tablewright.aisdk..", "dev.tablewright.mcp..", "dev.tablewright.agui..")
            // the package itself: its sub-package is the streaming runtime, a layer above (it uses the protocols)
            .layer("Lambda kit").definedBy("dev.tablewright.lambda")
            .layer("Adapters").definedBy("dev.tablewright.dynamodb..", "dev.tablewright.postgres..", "dev.tablewright.jwt..",
                    "dev.tablewright.openai..", "dev.tablewright.bedrock..", "dev.tablewright.invoke..", "dev.tablewright.telemetry..")
            .layer("Streaming runtime").definedBy("dev.tablewright.lambda.streaming..")
            // the tools (dev.tablewright.toolassembly) and the agent over them wired to their providers and stores, once
            // for every door: above the adapters, below the functions
            .layer("Assembly").definedBy("dev.tablewright.toolassembly..", "dev.tablewright.agentassembly..")
            .layer("Functions").definedBy("dev.tablewright.functions..")
            .layer("Fakes").definedBy("dev.tablewright.fakes..")
            .layer("Local stack").definedBy("dev.tablewright.localstack..")
            .layer("Evaluation").definedBy("dev.tablewright.eval..")
            .layer("Benchmarks").definedBy("dev.tablewright.bench..")
            .layer("Build checks").definedBy("dev.tablewright.checks..")
            .whereLayer("Build checks").mayNotBeAccessedByAnyLayer()
            .whereLayer("Benchmarks").mayNotBeAccessedByAnyLayer()
            .whereLayer("Evaluation").mayOnlyBeAccessedByLayers("Benchmarks", "Build checks")
            .whereLayer("Local stack").mayOnlyBeAccessedByLayers("Evaluation", "Benchmarks", "Build checks")
            .whereLayer("Fakes").mayOnlyBeAccessedByLayers("Local stack", "Evaluation", "Benchmarks", "Build checks")
            .whereLayer("Functions").mayOnlyBeAccessedByLayers(DEVELOPMENT)
            .whereLayer("Streaming runtime").mayOnlyBeAccessedByLayers(above("Functions"))
            .whereLayer("Assembly").mayOnlyBeAccessedByLayers(above("Functions"))
            .whereLayer("Adapters").mayOnlyBeAccessedByLayers(above("Assembly", "Functions"))
            .whereLayer("Lambda kit").mayOnlyBeAccessedByLayers(above("Door kit", "Adapters", "Assembly", "Streaming runtime", "Functions"))
            .whereLayer("Protocols").mayOnlyBeAccessedByLayers(above("Streaming runtime", "Functions"))
            .whereLayer("Door kit").mayOnlyBeAccessedByLayers(above("Protocols", "Assembly", "Functions"))
            .whereLayer("HTTP stream").mayOnlyBeAccessedByLayers(above("Door kit", "Protocols", "Streaming runtime", "Functions"))
            .whereLayer("Agent").mayOnlyBeAccessedByLayers(above("Door kit", "Protocols", "Adapters", "Assembly", "Functions"))
            // the implementations: only the functions that run them (the agent and the doors read the catalogue)
            .whereLayer("Tools").mayOnlyBeAccessedByLayers(above("Functions"))
            .whereLayer("Tool catalogue").mayOnlyBeAccessedByLayers(above("Tools", "Agent", "Door kit", "Protocols", "Assembly", "Functions"))
            .whereLayer("Domain").mayOnlyBeAccessedByLayers(above("Tool catalogue", "Tools", "Agent", "Door kit", "Protocols", "Lambda kit", "Adapters", "Assembly", "Functions"))
            .whereLayer("Logging").mayOnlyBeAccessedByLayers(above("Tool catalogue", "Tools", "Agent", "HTTP stream", "Door kit", "Protocols", "Lambda kit", "Adapters", "Assembly",
                    "Streaming runtime", "Functions"));

    static final ArchRule DOMAIN_STAYS_OFF_THE_PLATFORM = noClasses().that().resideInAnyPackage(DOMAIN)
            .or().resideInAnyPackage("dev.tablewright.catalogue..", "dev.tablewright.tools..", "dev.tablewright.agent..")
            .should().dependOnClassesThat().resideInAnyPackage("software.amazon..", "com.amazonaws..", "java.sql..",
                    "javax.sql..", "org.postgresql..", "com.nimbusds..", "com.openai..")
            .because("the domain, the tools and the agent core must build and run without AWS, a model client or a database driver");

    /** The agent core is one core behind every door: it knows no client protocol, no Lambda, no AWS, no model client. */
    static final ArchRule AGENT_KNOWS_NO_PROTOCOL = noClasses().that().resideInAPackage("dev.tablewright.agent..")
            .should().dependOnClassesThat().resideInAnyPackage("dev.tablewright.aisdk..", "dev.tablewright.mcp..",
                    "dev.tablewright.lambda..", "dev.tablewright.http..", "dev.tablewright.functions..", "dev.tablewright.openai..",
                    "dev.tablewright.bedrock..", "dev.tablewright.invoke..", "dev.tablewright.dynamodb..",
                    "com.amazonaws..", "software.amazon..", "com.openai..", "io.modelcontextprotocol..",
                    "dev.tablewright.telemetry..", "io.opentelemetry..")
            .because("each client protocol (the AI SDK stream, MCP), each platform and tracing (TurnObserver) is an adapter over the agent core");

    /**
     * The MCP door and the streaming runtime answer HTTP through the protocol-neutral stream
     * ({@code dev.tablewright.http.stream}): neither needs, nor ships, the AI SDK's door.
     */
    static final ArchRule MCP_AND_RUNTIME_KNOW_NO_AI_SDK = noClasses().that()
            .resideInAnyPackage("dev.tablewright.mcp..", "dev.tablewright.lambda.streaming..")
            .should().dependOnClassesThat().resideInAPackage("dev.tablewright.aisdk..")
            .because("a door answers HTTP through dev.tablewright.http.stream; the AI SDK is one door among others");

    /** The protocol doors: each a module over the door kit, none importing another. A new door is one entry here. */
    static final List<String> DOORS = List.of("dev.tablewright.aisdk..", "dev.tablewright.mcp..", "dev.tablewright.agui..");

    /**
     * No door imports another door, and the door kit imports none: what every door shares lives in the kit, so a
     * door is its wire format alone and a new one copies nothing out of another.
     */
    static final ArchRule DOORS_STAY_APART = doorsStayApart();

    private static ArchRule doorsStayApart() {
        CompositeArchRule rule = CompositeArchRule.of(noClasses().that().resideInAPackage("dev.tablewright.door..")
                .should().dependOnClassesThat().resideInAnyPackage(DOORS.toArray(String[]::new))
                .because("the door kit is protocol-neutral: every door builds on it").allowEmptyShould(true));
        for (String door : DOORS) {
            String[] others = DOORS.stream().filter(d -> !d.equals(door)).toArray(String[]::new);
            rule = rule.and(noClasses().that().resideInAPackage(door).should().dependOnClassesThat().resideInAnyPackage(others)
                    .because("a door is its wire format alone; what doors share is the door kit's").allowEmptyShould(true));
        }
        return rule;
    }

    /** Typed settings: the environment is read once, where a function is wired, and passed to constructors. */
    static final ArchRule SETTINGS_ARE_READ_WHERE_A_FUNCTION_IS_WIRED = noClasses()
            .that().resideOutsideOfPackages("dev.tablewright.functions..", "dev.tablewright.lambda..",
                    "dev.tablewright.localstack..", "dev.tablewright.bench..") // these two wire functions as Lambda would
            .should().dependOnClassesThat().haveFullyQualifiedName("dev.tablewright.lambda.Env")
            .because("the domain, the tools and the adapters take their settings from whoever wires them");

    /** The wire formats are written by the codec and each channel's writers, not declared on the domain's records. */
    static final ArchRule DOMAIN_CARRIES_NO_WIRE_ANNOTATIONS = noClasses().that().resideInAnyPackage(DOMAIN)
            .should().dependOnClassesThat().resideInAnyPackage("com.fasterxml.jackson.annotation..")
            .because("a config, a tool's answer and a form are read and written by ConfigJson, ToolOutcomeJson and "
                    + "InputFieldJson, so the domain's records carry no Jackson annotations");

    static final ArchRule NO_PACKAGE_CYCLES = slices().matching("dev.tablewright.(*)..").should().beFreeOfCycles();

    /**
     * Every main class of the tree: the deployed modules and infra's (the fakes, the local stack, the benchmarks).
     * Imported once for all the rules: an import reads every class file and what it depends on.
     */
    private static JavaClasses production() {
        return Production.CLASSES;
    }

    private static final class Production {
        static final JavaClasses CLASSES = importProduction();
    }

    private static JavaClasses importProduction() {
        JavaClasses classes = new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .withImportOption(location -> !location.contains("-tests.jar"))
                .importPackages("dev.tablewright");
        assertTrue(classes.size() > 200, "the production classes were imported: " + classes.size());
        assertTrue(classes.containPackage("dev.tablewright.fakes.model") && classes.containPackage("dev.tablewright.bench")
                        && classes.containPackage("dev.tablewright.eval"),
                "infra's main classes were imported");
        return classes;
    }

    @Test
    void eachLayerUsesOnlyTheLayersBelowIt() {
        LAYERS.check(production());
    }

    @Test
    void theDomainAndTheToolsUseNoPlatformLibrary() {
        DOMAIN_STAYS_OFF_THE_PLATFORM.check(production());
    }

    @Test
    void theAgentCoreKnowsNoProtocolAndNoPlatform() {
        AGENT_KNOWS_NO_PROTOCOL.check(production());
    }

    @Test
    void anAgentClassThatWritesTheUiStreamIsRefused() {
        EvaluationResult result = AGENT_KNOWS_NO_PROTOCOL.evaluate(new ClassFileImporter().importClasses(
                dev.tablewright.agent.crossing.AgentThatWritesTheUiStream.class, dev.tablewright.aisdk.stream.UiMessageStreamWriter.class));
        assertTrue(result.hasViolation(), "the rule must catch an agent class using UiMessageStreamWriter");
    }

    @Test
    void theMcpDoorAndTheStreamingRuntimeImportNothingOfTheAiSdk() {
        MCP_AND_RUNTIME_KNOW_NO_AI_SDK.check(production());
    }

    @Test
    void anMcpClassThatWritesTheUiStreamIsRefused() {
        EvaluationResult result = MCP_AND_RUNTIME_KNOW_NO_AI_SDK.evaluate(new ClassFileImporter().importClasses(
                dev.tablewright.mcp.crossing.McpThatWritesTheUiStream.class, dev.tablewright.aisdk.stream.UiMessageStreamWriter.class));
        assertTrue(result.hasViolation(), "the rule must catch an MCP class using UiMessageStreamWriter");
        assertTrue(result.getFailureReport().toString().contains("McpThatWritesTheUiStream"), result.getFailureReport().toString());
    }

    @Test
    void noDoorImportsAnotherAndTheKitImportsNone() {
        DOORS_STAY_APART.check(production());
    }

    @Test
    void aDoorThatReachesIntoAnotherDoorOrAKitThatKnowsADoorIsRefused() {
        EvaluationResult doors = DOORS_STAY_APART.evaluate(new ClassFileImporter().importClasses(
                dev.tablewright.aisdk.crossing.AiSdkThatAnswersMcp.class, dev.tablewright.mcp.McpEndpoint.class));
        assertTrue(doors.hasViolation(), "the rule must catch an AI SDK class using McpEndpoint");
        assertTrue(doors.getFailureReport().toString().contains("AiSdkThatAnswersMcp"), doors.getFailureReport().toString());
        EvaluationResult kit = DOORS_STAY_APART.evaluate(new ClassFileImporter().importClasses(
                dev.tablewright.door.crossing.KitThatKnowsTheAiSdk.class, dev.tablewright.aisdk.stream.UiMessageStreamWriter.class));
        assertTrue(kit.hasViolation(), "the rule must catch a door kit class using UiMessageStreamWriter");
        assertTrue(kit.getFailureReport().toString().contains("KitThatKnowsTheAiSdk"), kit.getFailureReport().toString());
    }

    @Test
    void onlyTheFunctionsWiringReadsTheEnvironment() {
        SETTINGS_ARE_READ_WHERE_A_FUNCTION_IS_WIRED.check(production());
    }

    @Test
    void theDomainsRecordsCarryNoJacksonAnnotations() {
        DOMAIN_CARRIES_NO_WIRE_ANNOTATIONS.check(production());
    }

    @Test
    void aDomainRecordWithAJacksonAnnotationIsRefused() {
        EvaluationResult result = DOMAIN_CARRIES_NO_WIRE_ANNOTATIONS.evaluate(
                new ClassFileImporter().importClasses(dev.tablewright.config.crossing.ConfigWithAWireAnnotation.class));
        assertTrue(result.hasViolation(), "the rule must catch a domain record annotated @JsonInclude");
        assertTrue(result.getFailureReport().toString().contains("ConfigWithAWireAnnotation"), result.getFailureReport().toString());
    }

    @Test
    void noTwoPackagesDependOnEachOther() {
        NO_PACKAGE_CYCLES.check(production());
    }

    @Test
    void aFunctionThatUsesAFakeIsRefused() {
        EvaluationResult result = LAYERS.evaluate(new ClassFileImporter().importClasses(
                dev.tablewright.functions.crossing.FunctionThatStartsAFakeModel.class, dev.tablewright.fakes.model.ScriptedModelServer.class));
        assertTrue(result.hasViolation(), "the rule must catch a function class using ScriptedModelServer");
        assertTrue(result.getFailureReport().toString().contains("FunctionThatStartsAFakeModel"), result.getFailureReport().toString());
    }

    @Test
    void aStreamingRuntimeClassThatKnowsAFunctionIsRefused() {
        EvaluationResult result = LAYERS.evaluate(new ClassFileImporter().importClasses(
                dev.tablewright.lambda.streaming.crossing.RuntimeThatKnowsTheChat.class, dev.tablewright.functions.chat.ChatFunction.class));
        assertTrue(result.hasViolation(), "the rule must catch the streaming runtime using ChatFunction");
        assertTrue(result.getFailureReport().toString().contains("RuntimeThatKnowsTheChat"), result.getFailureReport().toString());
    }

    @Test
    void aDoorThatRunsAToolsImplementationIsRefused() {
        EvaluationResult result = LAYERS.evaluate(new ClassFileImporter().importClasses(
                dev.tablewright.mcp.crossing.DoorThatRunsATool.class, dev.tablewright.tools.ApplyColumnChangeTool.class));
        assertTrue(result.hasViolation(), "the rule must catch a door using a tool's implementation");
        assertTrue(result.getFailureReport().toString().contains("DoorThatRunsATool"), result.getFailureReport().toString());
    }

    @Test
    void aDomainClassThatReachesIntoAnAdapterIsRefused() {
        JavaClasses crossing = new ClassFileImporter().importClasses(ConfigThatWritesToDynamoDb.class,
                dev.tablewright.dynamodb.DynamoConfigStore.class);
        EvaluationResult result = LAYERS.evaluate(crossing);
        assertTrue(result.hasViolation(), "the rule must catch a domain class using DynamoConfigStore");
        assertTrue(result.getFailureReport().toString().contains("ConfigThatWritesToDynamoDb"), result.getFailureReport().toString());
    }
}
