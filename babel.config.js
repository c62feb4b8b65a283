module.exports = require('@rancher/shell/babel.config.js');
