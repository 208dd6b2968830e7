package dev.tablewright.functions.userinput;

import dev.tablewright.lambda.Env;
import dev.tablewright.lambda.Settings;
import dev.tablewright.userinput.InputRequestService;


/**
 * What the user-input functions read from their environment, once, when a handler is built: their table
 * ({@code USER_INPUT_TABLE}, required) and how long requests and saved values live ({@code INPUT_REQUEST_TTL_HOURS},
 * default 24; {@code SAVED_VALUES_TTL_DAYS}, default 7). A value that cannot be used stops the function at init.
 */
public record UserInputSettings(String table, InputRequestService.Expiry expiry) {

    public static UserInputSettings fromEnvironment() {
        return new UserInputSettings(Env.require("USER_INPUT_TABLE"), Settings.inputRequestExpiry(Env.all()));
    }
}
