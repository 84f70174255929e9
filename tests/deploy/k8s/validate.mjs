// SPDX-License-Identifier: MIT
// Validates Kubernetes objects against the API's schemas, offline: kubernetes-models holds
// validators generated from the Kubernetes OpenAPI spec (types, required fields, enums, formats).
// stdin: a JSON array of {file, object}; prints one line per object; exit 1 when one is invalid.
// Install: npm ci --prefix tests/deploy/k8s (scripts/install-deps.sh does).
import { readFileSync } from "node:fs";

const docs = JSON.parse(readFileSync(0, "utf8"));
let invalid = 0;
for (const { file, object } of docs) {
  const [group, version] = object.apiVersion.includes("/") ? object.apiVersion.split("/") : [null, object.apiVersion];
  const where = `${file}: ${object.apiVersion} ${object.kind} ${object.metadata?.name ?? ""}`;
  let Model;
  try {
    Model = (await import(`kubernetes-models/${group ? group + "/" : ""}${version}/${object.kind}`))[object.kind];
  } catch {
    console.log(`${where}: INVALID: no such kind in the Kubernetes API`);
    invalid++;
    continue;
  }
  try {
    new Model(object).validate();
    console.log(`${where}: valid`);
  } catch (e) {
    console.log(`${where}: INVALID: ${e.message}`);
    invalid++;
  }
}
process.exit(invalid ? 1 : 0);
