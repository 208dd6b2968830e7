package dev.tablewright.userinput;

import dev.tablewright.toolcontract.InputField;
import dev.tablewright.toolcontract.ValueScope;

import java.util.List;

/** The body of "create an input request": a tool call that needs the user's input. */
public record NewInputRequest(String toolName, String toolCallId, String reason, List<InputField> fields,
                              Boolean saveForSession, ValueScope scope) {
}
