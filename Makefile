# Builds one function for `sam build` (every function in template.yaml has Metadata: BuildMethod: makefile
# and CodeUri: ., so SAM calls `make build-<LogicalId>` with ARTIFACTS_DIR set).
# Each function's Maven module is set below; the shaded jar of that module is unpacked into ARTIFACTS_DIR.

MVN ?= mvn

# build-<LogicalId>: MODULE=<functions/<module>>
# (the template test checks that every function of template.yaml is listed here, and nothing else)
build-CreateInputRequestFunction: MODULE=user-input
build-ListInputRequestsFunction: MODULE=user-input
build-GetInputRequestFunction: MODULE=user-input
build-SubmitInputResponseFunction: MODULE=user-input
build-CancelInputRequestFunction: MODULE=user-input
build-GetSavedValuesFunction: MODULE=user-input
build-ListUserValuesFunction: MODULE=user-input
build-ClearUserValueFunction: MODULE=user-input
build-ListConversationsFunction: MODULE=user-input
build-GetConversationFunction: MODULE=user-input
build-RenameConversationFunction: MODULE=user-input
build-DeleteConversationFunction: MODULE=user-input

# operation tools
build-ApplyColumnChangeFunction: MODULE=tools
build-ApplyFilterChangeFunction: MODULE=tools
build-ApplyJoinChangeFunction: MODULE=tools
build-ApplySortChangeFunction: MODULE=tools
build-ValidateTableConfigFunction: MODULE=tools
build-DiscoverTableReferenceFunction: MODULE=tools
build-ChatTurnFunction: MODULE=chat-turn

# database tools
build-SearchDatabaseSchemaFunction: MODULE=configs
build-PreviewTableConfigFunction: MODULE=configs

# config store tools and config/preview routes
build-GetTableConfigFunction: MODULE=configs
build-ListTableConfigsFunction: MODULE=configs
build-CreateTableConfigFunction: MODULE=configs
build-UpdateTableConfigFunction: MODULE=configs
build-ListConfigsFunction: MODULE=configs
build-CreateConfigFunction: MODULE=configs
build-GetConfigFunction: MODULE=configs
build-UpdateConfigFunction: MODULE=configs
build-ListConfigVersionsFunction: MODULE=configs
build-GetConfigVersionFunction: MODULE=configs
build-RestoreConfigVersionFunction: MODULE=configs
build-GetPreviewFunction: MODULE=configs
build-AcceptPreviewFunction: MODULE=configs
build-RejectPreviewFunction: MODULE=configs

# A target-specific MODULE above selects the module; this pattern rule is the recipe for all of them.
# FORCE: a pattern target cannot be .PHONY, and a stray file named build-X must not make X look up to date.
build-%: FORCE
	@test -n "$(MODULE)" || { echo "$@: no MODULE for $*; add a line 'build-$*: MODULE=<module>' to the Makefile" >&2; exit 1; }
	@test -n "$(ARTIFACTS_DIR)" || { echo "$@: ARTIFACTS_DIR is not set (sam build sets it)" >&2; exit 1; }
	$(MVN) -q -B -DskipTests -pl functions/$(MODULE) -am package
	mkdir -p "$(ARTIFACTS_DIR)"
	cd "$(ARTIFACTS_DIR)" && unzip -q -o "$(CURDIR)"/functions/$(MODULE)/target/*-lambda.jar
	@# jar entries carry no file modes: the chat function's AWS_LAMBDA_EXEC_WRAPPER script must be executable
	if [ -f "$(ARTIFACTS_DIR)/streaming-wrapper" ]; then chmod 755 "$(ARTIFACTS_DIR)/streaming-wrapper"; fi

FORCE:
.PHONY: FORCE
