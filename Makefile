# Builds the functions for `sam build` (every function in template.yaml has Metadata: BuildMethod: makefile and
# CodeUri: ., so SAM calls `make build-<LogicalId>` with ARTIFACTS_DIR set, once per function).
#
# SAM builds each makefile function on its own, so without care every call would run Maven again (35 builds of
# `shared`). Here one Maven run builds the function modules and stamps the result; every later call finds
# the stamp newer than the sources and only places the module's jar. samconfig.toml sets build_in_source, so
# the stamp and Maven's target/ folders survive between calls (SAM would otherwise copy the repository to a
# fresh scratch folder for each function).
#
# Each function's artifact is its module's shaded jar as lib/<module>.jar (Lambda's Java runtime puts
# /var/task/lib/*.jar on the class path), hard-linked where the file system allows: .aws-sam/build holds each
# distinct jar once, and the functions of one module have byte-identical artifacts, so `sam deploy` uploads each
# module's jar once (its S3 keys are content hashes).

MVN ?= mvn
MODULES := chat-turn tools configs user-input conversations mcp agui
STAMP := target/sam-build/jars.stamp
# Everything a jar is built from; a change to any of them makes the next build run Maven again.
SOURCES := $(shell find pom.xml shared functions -name target -prune -o -type f -print)
# SAM may run builds in parallel (--parallel): one Maven run at a time, where flock exists.
LOCK := $(shell command -v flock >/dev/null 2>&1 && echo flock target/sam-build.lock)

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
build-ListConversationsFunction: MODULE=conversations
build-GetConversationFunction: MODULE=conversations
build-RenameConversationFunction: MODULE=conversations
build-DeleteConversationFunction: MODULE=conversations

# operation tools
build-ApplyColumnChangeFunction: MODULE=tools
build-ApplyFilterChangeFunction: MODULE=tools
build-ApplyJoinChangeFunction: MODULE=tools
build-ApplySortChangeFunction: MODULE=tools
build-ValidateTableConfigFunction: MODULE=tools
build-DiscoverTableReferenceFunction: MODULE=tools
build-ChatTurnFunction: MODULE=chat-turn
build-McpFunction: MODULE=mcp
build-AguiFunction: MODULE=agui

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
	@mkdir -p target/sam-build
	@$(LOCK) $(MAKE) --no-print-directory -f $(firstword $(MAKEFILE_LIST)) $(STAMP)
	rm -rf "$(ARTIFACTS_DIR)" && mkdir -p "$(ARTIFACTS_DIR)/lib"
	ln -f target/sam-build/$(MODULE).jar "$(ARTIFACTS_DIR)/lib/$(MODULE).jar" 2>/dev/null \
	  || cp target/sam-build/$(MODULE).jar "$(ARTIFACTS_DIR)/lib/$(MODULE).jar"
	@# the streaming functions' AWS_LAMBDA_EXEC_WRAPPER script (shared/lambda-streaming, in the chat and MCP jars) must sit
	@# at the task root, executable (jar entries carry no modes)
	if unzip -l target/sam-build/$(MODULE).jar streaming-wrapper >/dev/null 2>&1; then \
	  unzip -q -o target/sam-build/$(MODULE).jar streaming-wrapper -d "$(ARTIFACTS_DIR)" && chmod 755 "$(ARTIFACTS_DIR)/streaming-wrapper"; fi

# One Maven run for all the function modules, building independent modules in parallel (-T 1C: one thread per core),
# without compiling their tests (maven.test.skip; the test-jars other modules' tests name are made empty).
# Each jar is copied to a new file (rm first): the artifacts hard-link the previous one, which must not change under them.
$(STAMP): $(SOURCES)
	$(MVN) -q -B -T 1C -Dmaven.test.skip=true -pl $(shell echo $(addprefix functions/,$(MODULES)) | tr ' ' ',') -am package
	for m in $(MODULES); do rm -f target/sam-build/$$m.jar && cp functions/$$m/target/*-lambda.jar target/sam-build/$$m.jar; done
	touch $@

FORCE:
.PHONY: FORCE
