package dev.tablewright.systemtest.userinput;

import dev.tablewright.door.FormAnswers;
import dev.tablewright.fakes.dynamodb.DynamoDbLocalLauncher;
import dev.tablewright.fakes.dynamodb.TemplateTables;
import dev.tablewright.functions.userinput.UserInputFunction;
import dev.tablewright.json.Json;
import dev.tablewright.toolcontract.FieldType;
import dev.tablewright.toolcontract.InputField;
import dev.tablewright.toolcontract.UserInputRequirement;
import dev.tablewright.toolcontract.ValueScope;
import dev.tablewright.userinput.InputRequestService;
import dev.tablewright.userinput.NewInputRequest;
import dev.tablewright.userinput.RequestStatus;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The door kit's one settlement of a user's form answers, over the input-request lifecycle on DynamoDB Local (as the user-input function builds it). */
class FormAnswersOnDynamoDbTest {

    private static final String OWNER = "user-1";
    private static final String CONVERSATION = "conv-1";
    private static final List<InputField> FIELDS = List.of(
            new InputField("region", "Region", null, FieldType.SELECT, true, null, null, null, null, List.of("eu", "us"), null));

    private InputRequestService service;
    private FormAnswers answers;

    @BeforeEach
    void start() {
        DynamoDbClient client = DynamoDbLocalLauncher.shared().client();
        String table = TemplateTables.fromTemplate().createAll(client, "form-" + UUID.randomUUID().toString().substring(0, 8) + "-")
                .tableName("UserInputTable");
        service = UserInputFunction.service(client, table, InputRequestService.Expiry.DEFAULT, Clock.systemUTC());
        answers = new FormAnswers(service);
    }

    private void ask(String requestId) {
        service.create(OWNER, CONVERSATION, new NewInputRequest("search", requestId, "Which region?", FIELDS, false, null));
    }

    @Test
    void anAnswerIsTakenOnceAndItsCopyIsToldFromAConflictingOne() {
        ask("call_1");
        FormAnswers.Settled first = answers.answer(OWNER, CONVERSATION, "call_1", Json.object().put("region", "eu"), false);
        assertEquals(Map.of("region", "eu"), assertInstanceOf(FormAnswers.Settled.Taken.class, first).values());
        assertInstanceOf(FormAnswers.Settled.Repeat.class,
                answers.answer(OWNER, CONVERSATION, "call_1", Json.object().put("region", "eu"), false));
        assertInstanceOf(FormAnswers.Settled.Conflict.class,
                answers.answer(OWNER, CONVERSATION, "call_1", Json.object().put("region", "us"), false));
        assertInstanceOf(FormAnswers.Settled.Conflict.class, answers.decline(OWNER, CONVERSATION, "call_1"));
        assertEquals(Map.of("region", "eu"), service.find(OWNER, CONVERSATION, "call_1").values(), "the first answer stands");
    }

    @Test
    void valuesThatDoNotFitTheFormAreRefusedAndNothingIsStored() {
        ask("call_1");
        FormAnswers.Settled invalid = answers.answer(OWNER, CONVERSATION, "call_1", Json.object().put("region", "mars"), true);
        assertEquals("values.region", assertInstanceOf(FormAnswers.Settled.Invalid.class, invalid).failure().errors().getFirst().field());
        assertEquals(RequestStatus.PENDING, service.find(OWNER, CONVERSATION, "call_1").status());
        assertInstanceOf(FormAnswers.Settled.Unknown.class, answers.answer(OWNER, CONVERSATION, "call_9", Json.object(), true));
        assertTrue(FormAnswers.refusal(invalid).isPresent());
    }

    @Test
    void aDeclineIsSettledOnceAndACancelledCallWithdrawsOnlyItsOwnPendingRequests() {
        ask("q_a_1");
        ask("q_a_2");
        ask("q_b_1");
        assertInstanceOf(FormAnswers.Settled.Declined.class, answers.decline(OWNER, CONVERSATION, "q_a_1"));
        assertInstanceOf(FormAnswers.Settled.Repeat.class, answers.decline(OWNER, CONVERSATION, "q_a_1"));
        assertEquals(List.of("q_a_2"), answers.withdrawPending(OWNER, CONVERSATION, "q_a_"));
        assertEquals(RequestStatus.PENDING, service.find(OWNER, CONVERSATION, "q_b_1").status());
        assertEquals(List.of(), answers.withdrawPending(OWNER, "conv-never", "q_"), "a conversation that asked nothing");
    }

    @Test
    void anAnswerToAFormAskedWithoutARequestIsCheckedAndKeptForTheUserWhenTheFormSaysSo() {
        UserInputRequirement kept = new UserInputRequirement("Which region?", FIELDS, true, ValueScope.USER);
        assertInstanceOf(FormAnswers.Settled.Invalid.class,
                answers.answer(OWNER, "kept-1", "req_1", "search", kept, Json.object().put("region", "mars")));
        FormAnswers.Settled taken = answers.answer(OWNER, "kept-1", "req_1", "search", kept, Json.object().put("region", "us"));
        assertEquals(Map.of("region", "us"), assertInstanceOf(FormAnswers.Settled.Taken.class, taken).values());
        assertEquals("us", service.userValues(OWNER).getFirst().value(), "kept for the user across conversations");
    }
}
