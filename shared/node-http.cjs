// `node:http` for the bundles, loaded with require: see `bundling.alias` in infra/bundling.ts.
// The bare name is deliberate: `node:http` here would resolve to this file again.
// biome-ignore lint/style/useNodejsImportProtocol: the alias maps node:http to this module
module.exports = require('http');
