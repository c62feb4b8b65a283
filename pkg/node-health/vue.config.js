const { withHostCheckScripts } = require('./host-check/raw-text');
const { withWorkers } = require('./worker-build');

module.exports = withWorkers(withHostCheckScripts(require('./.shell/pkg/vue.config')(__dirname)));
