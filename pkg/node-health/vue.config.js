const { withHostCheckScripts } = require('./host-check/raw-text');

module.exports = withHostCheckScripts(require('./.shell/pkg/vue.config')(__dirname));
