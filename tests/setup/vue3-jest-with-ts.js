// @vue/compiler-sfc finds no TypeScript on its own inside jest, and then fails on shell components
// that use imported types ("No fs option provided to compileScript"). Register it before vue3-jest
// loads (vuejs/core#8301; the dashboard's vue3JestRegisterTs.js does the same).
require('@vue/compiler-sfc').registerTS(() => require('typescript'));

module.exports = require('@vue/vue3-jest');
