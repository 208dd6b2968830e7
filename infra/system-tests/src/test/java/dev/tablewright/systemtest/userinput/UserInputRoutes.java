package dev.tablewright.systemtest.userinput;

import dev.tablewright.systemtest.http.InProcessHttpApi;
import dev.tablewright.userinput.InputRequestService;

/** The user-input routes of template.yaml, served in-process around one {@link InputRequestService}. */
final class UserInputRoutes extends InProcessHttpApi {

    UserInputRoutes(InputRequestService service) {
        super("dev.tablewright.functions.userinput.", InputRequestService.class, service, "user-input");
    }
}
