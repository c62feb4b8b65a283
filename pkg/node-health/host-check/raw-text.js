/**
 * The host check scripts go into the extension as text (asset/source): the tab offers them for copying.
 * Used by the extension's build (pkg/node-health/vue.config.js) and the dashboard's (vue.config.js).
 */
const HOST_CHECK_SCRIPTS_RULE = { test: /\.(sh|ps1)$/, type: 'asset/source' };

/** A vue.config whose webpack configuration also includes the scripts as text. */
function withHostCheckScripts(vueConfig) {
  const configure = vueConfig.configureWebpack;

  return {
    ...vueConfig,
    configureWebpack(config) {
      const result = typeof configure === 'function' ? configure(config) : undefined;

      config.module.rules.push(HOST_CHECK_SCRIPTS_RULE);

      return result;
    },
  };
}

module.exports = { HOST_CHECK_SCRIPTS_RULE, withHostCheckScripts };
