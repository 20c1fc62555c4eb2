// `node:http` for the bundles, loaded with require: see `bundling.alias` in infra/bundling.ts.
module.exports = require('http');
