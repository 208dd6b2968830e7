package dev.tablewright.localstack.local;

import dev.tablewright.agent.model.ChatModel;
import dev.tablewright.agent.toolcall.ToolInvoker;
import dev.tablewright.agentassembly.AgentAssembly;
import dev.tablewright.toolassembly.ToolAssembly;
import dev.tablewright.functions.agui.AgUiFunction;
import dev.tablewright.functions.chat.ChatFunction;
import dev.tablewright.functions.mcp.McpFunction;
import dev.tablewright.jwt.JwtVerifier;
import dev.tablewright.lambda.streaming.StreamingHandler;
import dev.tablewright.mcp.McpEndpoint;
import dev.tablewright.mcp.McpSettings;

import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * The doors the local stack serves on function URLs, found by the handler template.yaml names for each: how a door is
 * built from the stack's parts (its tools in-process, the local model, the development issuer) and the paths the
 * gateway serves it on. A new door is one entry here; {@link LocalDeployment} and {@link LocalGateway} know none by
 * name.
 */
final class LocalDoors {

    /** What the stack gives a door: the functions' environment, the tools run in-process, the model, the gateway's URL. */
    record Parts(Map<String, String> env, ToolInvoker tools, ChatModel model, String gatewayUrl) {
    }

    /**
     * @param handler the handler class template.yaml names
     * @param paths   the gateway's paths for it: each one, and anything below it
     */
    record Door(String handler, List<String> paths, Function<Parts, StreamingHandler> build) {
        boolean serves(String path) {
            return paths.stream().anyMatch(p -> path.equals(p) || path.startsWith(p + "/"));
        }
    }

    static final List<Door> ALL = List.of(
            // the AI SDK's chat, on the agent with the local model and in-process tools
            new Door(ChatFunction.class.getName(), List.of(LocalGateway.CHAT_PATH), parts -> new ChatFunction(
                    AgentAssembly.fromEnvironment(parts.env()).withModel(parts.model()).runningToolsWith(parts.tools()),
                    JwtVerifier.fromEnvironment(parts.env()))),
            // MCP, with the Host check of a server on this machine, the page for URL-mode questions, and a requestState
            // key of this run (deployed: the template's generated secret)
            new Door(McpFunction.class.getName(), List.of(McpEndpoint.PATH, McpEndpoint.METADATA_PATH), parts -> {
                Map<String, String> env = new LinkedHashMap<>(parts.env());
                env.putIfAbsent("MCP_ALLOWED_HOSTS", String.join(",", McpSettings.LOCAL_HOSTS));
                env.putIfAbsent("MCP_PAGE_URL", parts.gatewayUrl() + "/");
                env.remove("MCP_REQUEST_STATE_SECRET_ARN");
                env.putIfAbsent("MCP_REQUEST_STATE_KEY", randomKey());
                return new McpFunction(ToolAssembly.fromEnvironment(env).runningToolsWith(parts.tools()), env);
            }),
            // AG-UI, on the agent as the chat's
            new Door(AgUiFunction.class.getName(), List.of(LocalGateway.AGUI_PATH), parts -> new AgUiFunction(
                    AgentAssembly.fromEnvironment(parts.env()).withModel(parts.model()).runningToolsWith(parts.tools()),
                    JwtVerifier.fromEnvironment(parts.env()))));

    private LocalDoors() {
    }

    static Optional<Door> forHandler(String handler) {
        return ALL.stream().filter(d -> d.handler().equals(handler)).findFirst();
    }

    static Optional<Door> forPath(String path) {
        return ALL.stream().filter(d -> d.serves(path)).findFirst();
    }

    /** Key material for one run; never printed. */
    private static String randomKey() {
        byte[] bytes = new byte[32];
        new SecureRandom().nextBytes(bytes);
        return HexFormat.of().formatHex(bytes);
    }
}
