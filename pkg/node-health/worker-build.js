/**
 * The tab's Web Worker (`*.worker.ts`) goes into the extension inline: worker-loader (the loader the shell
 * builds its own workers with, a dependency of @rancher/shell) compiles it with everything it imports into
 * one script and makes the import a function that starts it from a Blob. A worker loaded from a URL would have
 * to come from the page's own origin, which an extension served from elsewhere (Developer Load, a plugin
 * URL) is not. Used by the extension's build (pkg/node-health/vue.config.js) and the dashboard's (vue.config.js).
 */
const WORKER_RULE = {
  test:    /\.worker\.ts$/,
  loader:  'worker-loader',
  // Named, so that the browser's developer tools (and the browser tests) can tell it from the dashboard's own.
  options: {
    inline: 'no-fallback', filename: '[name].js', worker: { type: 'Worker', options: { name: 'node-health' } }
  },
};

/** A vue.config whose webpack configuration also builds the workers. */
function withWorkers(vueConfig) {
  const configure = vueConfig.configureWebpack;

  return {
    ...vueConfig,
    configureWebpack(config) {
      const result = typeof configure === 'function' ? configure(config) : undefined;

      // First, so that worker-loader takes the file before the TypeScript loaders, which then compile it for the worker.
      config.module.rules.unshift(WORKER_RULE);

      return result;
    },
  };
}

module.exports = { WORKER_RULE, withWorkers };
