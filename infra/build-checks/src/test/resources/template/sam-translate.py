# Prints template.yaml as CloudFormation receives it after the SAM transform (aws-sam-translator, which cfn-lint
# installs), for SamTranslationTest. AWS::LanguageExtensions runs first in CloudFormation; its only use in the template
# is the !If of DeletionPolicy/UpdateReplacePolicy, which this script leaves out (it does not change the SAM output).
import json
import sys

from samtranslator.translator.transform import transform
from samtranslator.yaml_helper import yaml_parse

template = yaml_parse(open(sys.argv[1]).read())
template["Transform"] = "AWS::Serverless-2016-10-31"
for resource in template["Resources"].values():
    for attribute in ("DeletionPolicy", "UpdateReplacePolicy"):
        if isinstance(resource.get(attribute), dict):
            resource[attribute] = "Retain"
# CodeUri: . is sam build's input; the translator takes the S3 location sam deploy writes in its place.
template["Globals"]["Function"]["CodeUri"] = "s3://artifacts/function.zip"


class ManagedPolicies:
    def load(self):
        names = ["AWSLambdaBasicExecutionRole", "AWSLambdaVPCAccessExecutionRole", "AWSXrayWriteOnlyAccess"]
        return {n: "arn:aws:iam::aws:policy/" + ("" if n.startswith("AWSX") else "service-role/") + n for n in names}


json.dump(transform(template, {}, ManagedPolicies()), sys.stdout, indent=1)
