// The host check scripts as the build includes them: their text as the default export.
module.exports = {
  process(source) {
    return `module.exports = ${ JSON.stringify(source) }; module.exports.default = module.exports;`;
  },
};
