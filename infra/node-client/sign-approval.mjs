// The AI SDK 7 signing function itself (ai's internal signToolApproval, experimental_toolApprovalSecret's algorithm)
// and its verifier, for one call: prints {"signature", "verifies": <verifyToolApprovalSignature of the given one>}.
// usage: node sign-approval.mjs <secret> <approvalId> <toolCallId> <toolName> <input-json> [signature-to-verify]
import { signToolApproval, verifyToolApprovalSignature } from 'ai7-173/internal';

const [secret, approvalId, toolCallId, toolName, inputJson, given] = process.argv.slice(2);
const input = JSON.parse(inputJson);
const signature = await signToolApproval({ secret, approvalId, toolCallId, toolName, input });
const verifies = given == null ? null
  : await verifyToolApprovalSignature({ secret, signature: given, approvalId, toolCallId, toolName, input });
process.stdout.write(JSON.stringify({ signature, verifies }));
