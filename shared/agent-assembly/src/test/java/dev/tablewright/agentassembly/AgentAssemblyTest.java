package dev.tablewright.agentassembly;

import dev.tablewright.agent.TurnObserver;
import dev.tablewright.agent.conversation.ConversationMemory;
import dev.tablewright.bedrock.BedrockChatModel;
import dev.tablewright.openai.OpenAiChatModel;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The agent's wiring from a function's environment: which provider, which settings; no AWS or model call is made. */
class AgentAssemblyTest {

    @Test
    void theProviderIsOpenAiUnlessMODEL_PROVIDERSaysBedrock() {
        AgentAssembly openAi = AgentAssembly.fromEnvironment(Map.of("OPENAI_MODEL", "gpt-test", "OPENAI_API_KEY", "sk-test"));
        assertEquals(ModelProvider.OPENAI, openAi.provider());
        assertInstanceOf(OpenAiChatModel.class, openAi.model());
        assertEquals("gpt-test", openAi.provider().modelName(Map.of("OPENAI_MODEL", "gpt-test")));
        assertEquals("openai", openAi.provider().tracingName());

        Map<String, String> bedrockEnv = Map.of("MODEL_PROVIDER", " Bedrock ", "AWS_REGION", "eu-west-1", "BEDROCK_MODEL_ID", "amazon.nova-lite-v1:0");
        AgentAssembly bedrock = AgentAssembly.fromEnvironment(bedrockEnv);
        assertEquals(ModelProvider.BEDROCK, bedrock.provider());
        assertInstanceOf(BedrockChatModel.class, bedrock.model());
        assertEquals("aws.bedrock", bedrock.provider().tracingName());
        assertEquals("amazon.nova-lite-v1:0", bedrock.provider().modelName(bedrockEnv));
    }

    @Test
    void aProviderOrASettingThatCannotBeUsedIsNamed() {
        IllegalArgumentException unknown = assertThrows(IllegalArgumentException.class,
                () -> AgentAssembly.fromEnvironment(Map.of("MODEL_PROVIDER", "llama")));
        assertTrue(unknown.getMessage().contains("MODEL_PROVIDER is 'llama'"), unknown.getMessage());
        IllegalArgumentException noModel = assertThrows(IllegalArgumentException.class,
                () -> AgentAssembly.fromEnvironment(Map.of("MODEL_PROVIDER", "bedrock", "AWS_REGION", "eu-west-1")).model());
        assertTrue(noModel.getMessage().contains("BEDROCK_MODEL_ID"), noModel.getMessage());
        RuntimeException memory = assertThrows(RuntimeException.class,
                () -> AgentAssembly.fromEnvironment(Map.of("MEMORY_MAX_CHARS", "lots")));
        assertTrue(memory.getMessage().contains("MEMORY_MAX_CHARS"), memory.getMessage());
    }

    @Test
    void theChatsSettingsComeFromTheEnvironmentWithTheirDefaults() {
        AgentAssembly defaults = AgentAssembly.fromEnvironment(Map.of());
        assertSame(ConversationMemory.NONE, defaults.tools().doorStores().conversations(), "no table: conversations are not stored");
        assertEquals("ConfigsTable", defaults.tools().doorStores().tables().configs());
        assertEquals(4, defaults.settings().memory().verbatimTurns());

        AgentAssembly set = AgentAssembly.fromEnvironment(Map.of("CONVERSATIONS_TABLE", "conv", "CONVERSATION_TTL_DAYS", "7",
                "MEMORY_VERBATIM_TURNS", "2", "MEMORY_DIGEST_LINES", "5", "DATA_SOURCES", "{\"sales\": \"x\"}",
                "USER_INPUT_TABLE", "input", "PREVIEWS_TABLE", "prev"));
        assertEquals(2, set.settings().memory().verbatimTurns());
        assertEquals(5, set.settings().memory().maxDigestLines());
        assertEquals(List.of("sales"), set.settings().tools().dataSources());
        assertEquals("input", set.settings().tools().userInputTable());
        assertEquals("prev", set.tools().doorStores().tables().previews());
    }

    @Test
    void withoutAnEndpointNoSpansAndTheStoresShareTheToolsClient() {
        AgentAssembly assembly = AgentAssembly.fromEnvironment(Map.of("USER_INPUT_TABLE", "input", "DYNAMODB_ENDPOINT", "http://127.0.0.1:9", "AWS_REGION", "eu-west-1"));
        assertSame(TurnObserver.NONE, assembly.turnObserver());
        assertSame(assembly.tools().doorStores(), assembly.tools().doorStores(), "one set of stores (on one client) for the function");
        assertNotNull(assembly.lambdaTools());
    }
}
