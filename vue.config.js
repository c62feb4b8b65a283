const config = require('@rancher/shell/vue.config'); // eslint-disable-line @typescript-eslint/no-var-requires
const { withHostCheckScripts } = require('./pkg/node-health/host-check/raw-text'); // eslint-disable-line @typescript-eslint/no-var-requires
const { withWorkers } = require('./pkg/node-health/worker-build'); // eslint-disable-line @typescript-eslint/no-var-requires

module.exports = withWorkers(withHostCheckScripts(config(__dirname, {
  excludes: [],
  // excludes: ['fleet', 'example']
})));
