package dev.tablewright.dynamodb;

import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The priming call makes a whole GetItem round trip through the real SDK, with no credentials and no network. */
class LoopbackDynamoDbPrimingTest {

    @Test
    void aGetItemIsMarshalledSignedSentAndItsAnswerReadWithoutLeavingTheProcess() {
        // the role's credentials in the environment are not used: a local endpoint gets the fixed dummy ones
        var item = LoopbackDynamoDbPriming.run(Map.of("AWS_REGION", "eu-west-1",
                "AWS_ACCESS_KEY_ID", "AKIA-not-to-be-sent", "AWS_SECRET_ACCESS_KEY", "not-to-be-sent"));
        assertEquals("priming", item.get("pk").s());
        assertEquals("1", item.get("n").n());
    }
}
