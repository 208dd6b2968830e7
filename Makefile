# Builds one function for `sam build` (every function in template.yaml has Metadata: BuildMethod: makefile
# and CodeUri: ., so SAM calls `make build-<LogicalId>` with ARTIFACTS_DIR set).
# Each function's Maven module is set below; the shaded jar of that module is unpacked into ARTIFACTS_DIR.

MVN ?= mvn

# build-<LogicalId>: MODULE=<functions/<module>>
# (the template test checks that every function of template.yaml is listed here, and nothing else)
build-CreateInputRequestFunction: MODULE=user-input
build-ListInputRequestsFunction: MODULE=user-input
build-SubmitInputResponseFunction: MODULE=user-input
build-CancelInputRequestFunction: MODULE=user-input
build-GetSavedValuesFunction: MODULE=user-input
build-ListUserValuesFunction: MODULE=user-input
build-ClearUserValueFunction: MODULE=user-input

build-%:
	$(MVN) -q -B -DskipTests -pl functions/$(MODULE) -am package
	cd "$(ARTIFACTS_DIR)" && unzip -q -o "$(CURDIR)"/functions/$(MODULE)/target/*-lambda.jar

.PHONY: build-%
