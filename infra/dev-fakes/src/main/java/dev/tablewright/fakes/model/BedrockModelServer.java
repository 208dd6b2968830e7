package dev.tablewright.fakes.model;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tablewright.bedrock.BedrockErrorTypes;
import dev.tablewright.bedrock.ConverseStreamEvents;
import dev.tablewright.fakes.http.HttpRequest;
import dev.tablewright.fakes.http.HttpResponder;
import dev.tablewright.fakes.http.LoopbackHttpServer;
import dev.tablewright.json.Json;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.AwsCredentials;
import software.amazon.awssdk.auth.credentials.AwsSessionCredentials;
import software.amazon.awssdk.http.ContentStreamProvider;
import software.amazon.awssdk.http.SdkHttpMethod;
import software.amazon.awssdk.http.SdkHttpRequest;
import software.amazon.awssdk.http.auth.aws.signer.AwsV4HttpSigner;
import software.amazon.awssdk.http.auth.spi.signer.HttpSigner;

import java.io.IOException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A stand-in for Amazon Bedrock Runtime's ConverseStream on the loopback interface: {@code POST
 * /model/{modelId}/converse-stream}, answered with the same {@link ScriptedTurn}s the OpenAI-compatible
 * {@link ScriptedModelServer} plays, written as Bedrock writes them (AWS event-stream frames: {@code messageStart},
 * {@code contentBlockStart}/{@code Delta}/{@code Stop}, {@code messageStop} with its stop reason, {@code metadata}
 * with the usage). Before a turn is played the request is checked as Bedrock would:
 * <ul>
 *   <li>the SigV4 {@code Authorization} header's scope is {@code <date>/<region>/bedrock/aws4_request}, and with
 *       {@link #verifySignatures} the signature itself is recomputed and compared ({@code 403
 *       InvalidSignatureException} otherwise); given temporary credentials and a region, the request must also carry
 *       their session token ({@code X-Amz-Security-Token}, signed) and be scoped to that region;</li>
 *   <li>the body keeps {@link ConverseRequestRules} ({@code 400 ValidationException} naming every rule broken,
 *       kept in {@link #violations()}).</li>
 * </ul>
 * A scripted {@link ScriptedTurn.HttpError} becomes Bedrock's error for its status ({@code 429 ThrottlingException},
 * {@code 503 ServiceUnavailableException}, {@code 400 ValidationException}, {@code 403 AccessDeniedException}, ...;
 * an {@code x-amzn-ErrorType} header in the script names another); {@link ScriptedTurn.Step.StreamException} is an
 * exception frame mid-stream. Every request is recorded ({@link #requests()}); with no turn left it answers
 * {@code 500 InternalServerException}.
 */
public final class BedrockModelServer extends ScriptedModel {

    private static final Pattern AUTHORIZATION = Pattern.compile(
            "AWS4-HMAC-SHA256 Credential=([^/]+)/(\\d{8})/([^/]+)/([^/]+)/aws4_request, ?SignedHeaders=([^,]+), ?Signature=([0-9a-f]{64})");
    private static final DateTimeFormatter AMZ_DATE = DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss'Z'").withZone(ZoneOffset.UTC);
    private static final Pattern PATH = Pattern.compile("/model/([^/]+)/converse-stream");

    private final List<String> violations = new ArrayList<>();
    private volatile AwsCredentials signedWith;
    private volatile String signedFor;

    private BedrockModelServer(int port, ModelScript script) throws IOException {
        super("the Bedrock stand-in", Integer.MAX_VALUE, script);
        serve(LoopbackHttpServer.start(port, "bedrock-stand-in", this::handle));
    }

    public static BedrockModelServer start() throws IOException {
        return start(0, new ModelScript(List.of()));
    }

    public static BedrockModelServer start(int port, ModelScript script) throws IOException {
        return new BedrockModelServer(port, script);
    }

    /** {@code http://127.0.0.1:<port>}: {@code BEDROCK_ENDPOINT}. */
    public String endpoint() {
        return loopbackUrl();
    }

    /** From now on, a request's signature must be the one these credentials make (the scope is always checked). */
    public BedrockModelServer verifySignatures(String accessKeyId, String secretAccessKey) {
        this.signedWith = AwsBasicCredentials.create(accessKeyId, secretAccessKey);
        return this;
    }

    /**
     * From now on, requests must be signed with these credentials for {@code region}: the scope names the key id and
     * the region, the signature matches, and {@code X-Amz-Security-Token} carries the session token and is signed
     * (temporary credentials) or is absent ({@code sessionToken} null: long-term keys).
     */
    public BedrockModelServer verifySignatures(String accessKeyId, String secretAccessKey, String sessionToken, String region) {
        this.signedWith = sessionToken == null ? AwsBasicCredentials.create(accessKeyId, secretAccessKey)
                : AwsSessionCredentials.create(accessKeyId, secretAccessKey, sessionToken);
        this.signedFor = region;
        return this;
    }

    /** Every rule a received request broke, prefixed with the request's index; empty when Bedrock would have taken them all. */
    public List<String> violations() {
        synchronized (violations) {
            return List.copyOf(violations);
        }
    }

    /** The model id a request named in its path. */
    public static String modelId(RecordedRequest request) {
        Matcher m = PATH.matcher(request.path());
        return m.matches() ? URLDecoder.decode(m.group(1), StandardCharsets.UTF_8) : "";
    }

    private void handle(HttpRequest request, HttpResponder response) throws Exception {
        byte[] raw = request.body();
        Matcher path = PATH.matcher(request.path());
        if (!request.method().equals("POST") || !path.matches()) {
            error(response, 404, "UnknownOperationException", "not found: " + request.method() + " " + request.path());
            return;
        }
        JsonNode body;
        try {
            body = Json.parse(new String(raw, StandardCharsets.UTF_8));
        } catch (IOException e) {
            error(response, 400, "SerializationException", "the request body is not JSON");
            return;
        }
        RecordedRequest recorded = record(request.path(), request.headers(), body);
        RecordedRequest.Answer answer = recorded.answer();
        String signature = signatureProblem(request, raw);
        if (signature != null) {
            note(recorded, signature);
            error(response, 403, "InvalidSignatureException", signature);
            answer.end("error 403");
            return;
        }
        List<String> broken = ConverseRequestRules.violations(body);
        if (!broken.isEmpty()) {
            broken.forEach(v -> note(recorded, v));
            error(response, 400, "ValidationException", String.join("; ", broken));
            answer.end("error 400");
            return;
        }
        play(nextTurn(), recorded, response);
    }

    @Override
    String noTurnLeft() {
        return "Bedrock stand-in: no turn left";
    }

    /** Bedrock's error for the status, or the one a scripted {@code x-amzn-ErrorType} header names. */
    @Override
    void sendError(HttpResponder response, int status, String message, Map<String, String> scriptedHeaders) throws IOException {
        Map<String, String> headers = new HashMap<>(scriptedHeaders);
        String type = headers.remove("x-amzn-ErrorType");
        error(response, status, type != null ? type : BedrockErrorTypes.ofStatus(status), message, headers);
    }

    private void note(RecordedRequest request, String violation) {
        synchronized (violations) {
            violations.add("request " + request.index() + ": " + violation);
        }
    }

    /** Null when the Authorization header is a SigV4 one for bedrock (and, when asked, its signature checks out). */
    private String signatureProblem(HttpRequest request, byte[] body) {
        String authorization = request.header("Authorization");
        if (authorization == null) {
            return "no Authorization header: the request is not signed";
        }
        Matcher m = AUTHORIZATION.matcher(authorization);
        if (!m.matches()) {
            return "the Authorization header is not a SigV4 one (AWS4-HMAC-SHA256 Credential=…/bedrock/aws4_request, SignedHeaders=…, Signature=…)";
        }
        if (!m.group(4).equals("bedrock")) {
            return "the credential scope names service '" + m.group(4) + "', not bedrock";
        }
        String amzDate = request.header("X-Amz-Date");
        if (amzDate == null || !amzDate.startsWith(m.group(2))) {
            return "X-Amz-Date is missing or not of the credential scope's date";
        }
        List<String> signedHeaders = List.of(m.group(5).split(";"));
        if (!signedHeaders.contains("host") || !signedHeaders.contains("x-amz-date")) {
            return "SignedHeaders must cover host and x-amz-date";
        }
        AwsCredentials credentials = signedWith;
        if (credentials == null) {
            return null;
        }
        if (!credentials.accessKeyId().equals(m.group(1))) {
            return "signed with access key " + m.group(1) + ", not the stand-in's";
        }
        if (signedFor != null && !signedFor.equals(m.group(3))) {
            return "Credential should be scoped to a valid region: the scope names " + m.group(3) + ", requests here are signed for " + signedFor;
        }
        if (credentials instanceof AwsSessionCredentials session && (!session.sessionToken().equals(request.header("X-Amz-Security-Token"))
                || !signedHeaders.contains("x-amz-security-token"))) {
            return "The security token included in the request is invalid: X-Amz-Security-Token is missing, another one or not signed";
        }
        if (signedFor != null && !(credentials instanceof AwsSessionCredentials) && request.header("X-Amz-Security-Token") != null) {
            return "The security token included in the request is invalid: long-term keys carry no X-Amz-Security-Token";
        }
        SdkHttpRequest.Builder unsigned = SdkHttpRequest.builder().method(SdkHttpMethod.POST).protocol("http")
                .host("127.0.0.1").port(port()).encodedPath(request.path());
        for (String name : signedHeaders) {
            if (!name.equals("host") && request.header(name) != null) {
                unsigned.putHeader(name, request.header(name));
            }
        }
        Instant at = Instant.from(AMZ_DATE.parse(amzDate));
        String expected = AwsV4HttpSigner.create().sign(r -> r.identity(credentials).request(unsigned.build())
                        .payload(ContentStreamProvider.fromByteArray(body))
                        .putProperty(AwsV4HttpSigner.SERVICE_SIGNING_NAME, m.group(4))
                        .putProperty(AwsV4HttpSigner.REGION_NAME, m.group(3))
                        .putProperty(HttpSigner.SIGNING_CLOCK, Clock.fixed(at, ZoneOffset.UTC)))
                .request().firstMatchingHeader("Authorization").orElse("");
        return expected.endsWith("Signature=" + m.group(6)) ? null
                : "The request signature we calculated does not match the signature you provided.";
    }

    /** The scope is what tests look at; the signature itself is not kept. */
    @Override
    String keptAuthorization(String value) {
        Matcher m = AUTHORIZATION.matcher(value);
        return m.matches() ? "AWS4-HMAC-SHA256 Credential=" + m.group(1) + "/" + m.group(2) + "/" + m.group(3) + "/"
                + m.group(4) + "/aws4_request, SignedHeaders=" + m.group(5) + ", Signature=<redacted>" : "<redacted>";
    }

    /** Always streamed: ConverseStream has no whole answer. */
    @Override
    void complete(ScriptedTurn.Completion turn, RecordedRequest request, HttpResponder response) throws IOException, InterruptedException {
        RecordedRequest.Answer answer = request.answer();
        long started = System.nanoTime();
        Map<Integer, Integer> blockOfTool = new HashMap<>();
        int block = -1;
        boolean textOpen = false;
        boolean started200 = false;
        for (ScriptedTurn.Step step : turn.steps()) {
            switch (step) {
                case ScriptedTurn.Step.Pause p -> pause(p, response);
                case ScriptedTurn.Step.Cut c -> {
                    if (!started200) {
                        start(response, answer);
                    }
                    // the frames before the cut reach the client first: the JDK client drops what it holds
                    // unread once the connection fails, and a real cut follows frames that did arrive
                    Thread.sleep(200);
                    response.hangUp();
                    answer.end("cut");
                    return;
                }
                case ScriptedTurn.Step.StreamException x -> {
                    if (!started200) {
                        start(response, answer);
                    }
                    response.chunk(ConverseStreamEvents.exception(x.type(), x.message()));
                    response.endChunked();
                    answer.end("exception " + x.type());
                    return;
                }
                case ScriptedTurn.Step.Text t -> {
                    if (!started200) {
                        started200 = start(response, answer);
                    }
                    if (!textOpen) {
                        if (block >= 0) {
                            event(response, "contentBlockStop", Json.object().put("contentBlockIndex", block));
                        }
                        block++;
                        textOpen = true;
                    }
                    ObjectNode delta = Json.object().put("contentBlockIndex", block);
                    delta.putObject("delta").put("text", t.delta());
                    event(response, "contentBlockDelta", delta);
                    answer.contentSent();
                }
                case ScriptedTurn.Step.ToolCallStart s -> {
                    if (!started200) {
                        started200 = start(response, answer);
                    }
                    if (block >= 0) {
                        event(response, "contentBlockStop", Json.object().put("contentBlockIndex", block));
                    }
                    block++;
                    textOpen = false;
                    blockOfTool.put(s.index(), block);
                    ObjectNode start = Json.object().put("contentBlockIndex", block);
                    start.putObject("start").putObject("toolUse").put("toolUseId", s.id()).put("name", s.name());
                    event(response, "contentBlockStart", start);
                    answer.contentSent();
                }
                case ScriptedTurn.Step.ToolArguments a -> {
                    if (!started200) {
                        started200 = start(response, answer);
                    }
                    ObjectNode delta = Json.object().put("contentBlockIndex", blockOfTool.getOrDefault(a.index(), block));
                    delta.putObject("delta").putObject("toolUse").put("input", a.fragment());
                    event(response, "contentBlockDelta", delta);
                    answer.contentSent();
                }
            }
        }
        if (!started200) {
            start(response, answer);
        }
        if (block >= 0) {
            event(response, "contentBlockStop", Json.object().put("contentBlockIndex", block));
        }
        event(response, "messageStop", Json.object().put("stopReason", stopReason(turn)));
        ScriptedTurn.Usage usage = turn.usage() != null ? turn.usage() : new ScriptedTurn.Usage(0, 0);
        ObjectNode metadata = Json.object();
        metadata.putObject("usage").put("inputTokens", usage.promptTokens()).put("outputTokens", usage.completionTokens())
                .put("totalTokens", usage.promptTokens() + usage.completionTokens());
        metadata.putObject("metrics").put("latencyMs", (System.nanoTime() - started) / 1_000_000);
        event(response, "metadata", metadata);
        response.endChunked();
        answer.end("completed");
    }

    private static boolean start(HttpResponder response, RecordedRequest.Answer answer) throws IOException {
        answer.firstByte();
        response.startChunked(200, Map.of("Content-Type", ConverseStreamEvents.CONTENT_TYPE,
                "x-amzn-RequestId", java.util.UUID.randomUUID().toString()));
        event(response, "messageStart", Json.object().put("role", "assistant"));
        return true;
    }

    /** The turn's finish reason (OpenAI's words, as the scripts say them) in Bedrock's. */
    private static String stopReason(ScriptedTurn.Completion turn) {
        String reason = turn.finishReason() != null ? turn.finishReason() : turn.callsTools() ? "tool_calls" : "stop";
        return switch (reason) {
            case "stop" -> "end_turn";
            case "tool_calls" -> "tool_use";
            case "length" -> "max_tokens";
            case "content_filter" -> "content_filtered";
            default -> reason;
        };
    }

    private static void event(HttpResponder response, String type, ObjectNode payload) throws IOException {
        response.chunk(ConverseStreamEvents.event(type, payload));
    }

    private static void error(HttpResponder response, int status, String type, String message) throws IOException {
        error(response, status, type, message, Map.of());
    }

    private static void error(HttpResponder response, int status, String type, String message, Map<String, String> headers) throws IOException {
        Map<String, String> all = new LinkedHashMap<>(headers);
        all.put("Content-Type", "application/json");
        all.put("x-amzn-ErrorType", type + ":http://internal.amazon.com/coral/com.amazon.bedrock/");
        response.send(status, all, Json.MAPPER.writeValueAsBytes(Json.object().put("message", message)));
    }
}
