// Jest against @rancher/shell 3.0.8 (jest 27, ts-jest 27, @vue/vue3-jest 27).
// Two projects share one transform set-up:
//   unit        every *.test.ts outside tests/components and tests/e2e, in plain node (pure code)
//   components  tests/components/**, in jsdom with the Vue globals Rancher's components expect
process.env.TZ = 'UTC';
// ts-jest 27 warns on TypeScript 5; Rancher's dashboard runs the very same pair (ts-jest 27.1.5, TS 5.6.3).
process.env.TS_JEST_DISABLE_VER_CHECKER = 'true';

const shared = {
  rootDir:              __dirname,
  watchman:             false,
  moduleFileExtensions: ['ts', 'js', 'json', 'vue', 'sh', 'ps1'],
  moduleNameMapper:     {
    '^@shell/(.*)$':                                   '<rootDir>/node_modules/@rancher/shell/$1',
    // Same target as the alias that shell's vue.config.js sets for builds.
    '^@components/(.*)$':                              '<rootDir>/node_modules/@rancher/shell/rancher-components/$1',
    '^@pkg/(.*)$':                                     '<rootDir>/pkg/$1',
    // A webpack virtual module at build time; tests that load an extension's index.ts get a no-op.
    '^@rancher/auto-import$':                          '<rootDir>/tests/setup/auto-import-stub.ts',
    '\\.(jpe?g|png|gif|webp|svg|woff2?|eot|ttf|otf)$': '<rootDir>/tests/setup/file-stub.js',
  },
  transform: {
    '^.+\\.tsx?$':     'ts-jest',
    '^.+\\.js$':       'babel-jest',
    '^.+\\.vue$':      '<rootDir>/tests/setup/vue3-jest-with-ts.js',
    // The host check scripts, as text (the build's asset/source rule does the same).
    '^.+\\.(sh|ps1)$': '<rootDir>/tests/setup/raw-text.js',
  },
  // Shell and the few ESM-only packages it imports ship untranspiled sources.
  transformIgnorePatterns:  ['/node_modules/(?!(@rancher/shell|@rancher/components|color[^/]*|clipboard-polyfill)/)'],
  testPathIgnorePatterns:   ['/node_modules/', '<rootDir>/dist/', '<rootDir>/dist-pkg/', '<rootDir>/tests/e2e/', '<rootDir>/.tools/'],
  modulePathIgnorePatterns: ['<rootDir>/dist/', '<rootDir>/dist-pkg/', '<rootDir>/.tools/', '<rootDir>/pkg/.*/\\.shell/'],
  globals:                  {
    'ts-jest':  { isolatedModules: true },
    // The dashboard's own build compiles templates keeping white space (shell vue.config.js); tests see the same text.
    'vue-jest': { compilerOptions: { whitespace: 'preserve' } },
  },
};

module.exports = {
  projects: [
    {
      ...shared,
      displayName:     'unit',
      testEnvironment: 'node',
      testMatch:       [
        '<rootDir>/tests/**/*.test.ts',
        '<rootDir>/{pkg,cli,scenarios,bench,mock-rancher}/**/*.test.ts',
      ],
      testPathIgnorePatterns: [...shared.testPathIgnorePatterns, '<rootDir>/tests/components/'],
    },
    {
      ...shared,
      displayName:        'components',
      testEnvironment:    'jsdom',
      testMatch:          ['<rootDir>/tests/components/**/*.test.ts'],
      setupFilesAfterEnv: ['<rootDir>/tests/setup/jest.setup.ts'],
    },
  ],
};
