// Validates glTF files with the Khronos glTF-Validator (the npm package `gltf-validator`, which
// scripts/test.sh installs under target/gltf-validator): prints one line per file, then every
// error and warning, and exits 1 when any file has an error.
//
//   node scripts/validate-gltf.cjs FILE.glb|FILE.gltf...
//
// GLTF_VALIDATOR_MODULES names the node_modules folder to load the package from.
const path = require('path');
const fs = require('fs');
const modules = process.env.GLTF_VALIDATOR_MODULES || path.join(__dirname, '..', 'target', 'gltf-validator', 'node_modules');
const validator = require(path.join(modules, 'gltf-validator'));

async function main() {
  let failed = false;
  for (const file of process.argv.slice(2)) {
    const bytes = new Uint8Array(fs.readFileSync(file));
    const report = await validator.validateBytes(bytes, {
      uri: path.basename(file),
      maxIssues: 0,
      externalResourceFunction: (uri) =>
        new Promise((resolve, reject) => {
          fs.readFile(path.join(path.dirname(file), decodeURIComponent(uri)), (err, data) =>
            err ? reject(err.toString()) : resolve(new Uint8Array(data)));
        }),
    });
    const issues = report.issues;
    console.log(`${file}: ${issues.numErrors} errors, ${issues.numWarnings} warnings, ${issues.numInfos} infos, ${issues.numHints} hints`);
    for (const m of issues.messages) {
      if (m.severity <= 1) {
        console.log(`  ${m.severity === 0 ? 'error' : 'warning'} ${m.code} ${m.pointer || ''}: ${m.message}`);
      }
    }
    if (issues.numErrors > 0) failed = true;
  }
  process.exit(failed ? 1 : 0);
}

main().catch((e) => {
  console.error(e);
  process.exit(2);
});
