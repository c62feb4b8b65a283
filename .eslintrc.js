module.exports = {
  root: true,
  env:  {
    browser: true,
    node:    true,
    jest:    true
  },
  globals: {
    NodeJS: true,
    Timer:  true
  },
  plugins: [
    'jest',
    '@typescript-eslint'
  ],
  extends: [
    'standard',
    'eslint:recommended',
    'plugin:@typescript-eslint/recommended',
    '@vue/standard',
    '@vue/typescript/recommended',
    'plugin:vue/vue3-recommended',
    'plugin:cypress/recommended'
  ],
  rules: {
    'dot-notation':             'off',
    'generator-star-spacing':   'off',
    'guard-for-in':             'off',
    'linebreak-style':          'off',
    'new-cap':                  'off',
    'no-empty':                 'off',
    'no-extra-boolean-cast':    'off',
    'no-new':                   'off',
    'no-plusplus':              'off',
    'no-useless-escape':        'off',
    'semi-spacing':             'off',
    'space-in-parens':          'off',
    strict:                     'off',
    'unicorn/no-new-buffer':    'off',
    'vue/html-self-closing':    'off',
    'vue/no-unused-components': 'warn',
    'vue/no-v-html':            'error',
    'wrap-iife':                'off',
    'array-bracket-spacing':    'warn',
    'arrow-parens':             'warn',
    'arrow-spacing':            [
      'warn',
      {
        before: true,
        after:  true
      }
    ],
    'block-spacing': [
      'warn',
      'always'
    ],
    'brace-style': [
      'warn',
      '1tbs'
    ],
    'comma-dangle': [
      'warn',
      'only-multiline'
    ],
    'comma-spacing':     'warn',
    curly:               'warn',
    eqeqeq:              'warn',
    'func-call-spacing': [
      'warn',
      'never'
    ],
    'implicit-arrow-linebreak': 'warn',
    indent:                     [
      'warn',
      2
    ],
    'keyword-spacing':             'warn',
    'lines-between-class-members': [
      'warn',
      'always',
      { exceptAfterSingleLine: true }
    ],
    'multiline-ternary': [
      'warn',
      'never'
    ],
    'newline-per-chained-call': [
      'warn',
      { ignoreChainWithDepth: 4 }
    ],
    'no-caller':      'warn',
    'no-cond-assign': [
      'warn',
      'except-parens'
    ],
    'no-console':                    'warn',
    'no-debugger':                   'warn',
    'no-eq-null':                    'warn',
    'no-eval':                       'warn',
    'no-trailing-spaces':            'warn',
    'no-undef':                      'warn',
    'no-unused-vars':                'warn',
    'no-whitespace-before-property': 'warn',
    'object-curly-spacing':          [
      'warn',
      'always'
    ],
    'object-property-newline': 'warn',
    'object-shorthand':        'warn',
    'padded-blocks':           [
      'warn',
      'never'
    ],
    'prefer-arrow-callback': 'warn',
    'prefer-template':       'warn',
    'quote-props':           'warn',
    'rest-spread-spacing':   'warn',
    semi:                    [
      'warn',
      'always'
    ],
    'space-before-function-paren': [
      'warn',
      'never'
    ],
    'space-infix-ops':        'warn',
    'spaced-comment':         'warn',
    'switch-colon-spacing':   'warn',
    'template-curly-spacing': [
      'warn',
      'always'
    ],
    'yield-star-spacing': [
      'warn',
      'both'
    ],
    'key-spacing': [
      'warn',
      {
        align: {
          beforeColon: false,
          afterColon:  true,
          on:          'value',
          mode:        'minimum'
        },
        multiLine: {
          beforeColon: false,
          afterColon:  true
        }
      }
    ],
    'object-curly-newline': [
      'warn',
      {
        ObjectExpression: {
          multiline:     true,
          minProperties: 3
        },
        ObjectPattern: {
          multiline:     true,
          minProperties: 4
        },
        ImportDeclaration: {
          multiline:     true,
          minProperties: 5
        },
        ExportDeclaration: {
          multiline:     true,
          minProperties: 3
        }
      }
    ],
    'padding-line-between-statements': [
      'warn',
      {
        blankLine: 'always',
        prev:      '*',
        next:      'return'
      },
      {
        blankLine: 'always',
        prev:      'function',
        next:      'function'
      },
      {
        blankLine: 'always',
        prev:      [
          'const',
          'let',
          'var'
        ],
        next: '*'
      },
      {
        blankLine: 'any',
        prev:      [
          'const',
          'let',
          'var'
        ],
        next: [
          'const',
          'let',
          'var'
        ]
      }
    ],
    quotes: [
      'warn',
      'single',
      {
        avoidEscape:           true,
        allowTemplateLiterals: true
      }
    ],
    'space-unary-ops': [
      'warn',
      {
        words:    true,
        nonwords: false
      }
    ],
    'vue/order-in-components':            'off',
    'vue/no-lone-template':               'off',
    'vue/v-slot-style':                   'off',
    'vue/component-tags-order':           'off',
    'vue/no-mutating-props':              'off',
    '@typescript-eslint/no-unused-vars':  'off',
    'array-callback-return':              'off',
    'vue/one-component-per-file':         'off',
    'vue/no-deprecated-slot-attribute':   'off',
    'vue/require-explicit-emits':         'off',
    'vue/v-on-event-hyphenation':         'off',
    // The following follow the dashboard's own .eslintrc.js
    'no-redeclare':                         'off',
    '@typescript-eslint/no-redeclare':      'error',
    '@typescript-eslint/no-var-requires':   'off',
    '@typescript-eslint/no-this-alias':     'off',
    '@typescript-eslint/no-explicit-any':   'off',
    'import/order':                         'off',
    'import/no-named-as-default':           'off',
    'vue/multi-word-component-names':       'off',
    'vue/no-reserved-component-names':      'off',
    'vue/no-useless-template-attributes':   'off',
    'vue/attribute-hyphenation':            'off',
    'jest/no-commented-out-tests':          'off',
    'jest/no-disabled-tests':               'off',
    'jest/no-hooks':                        'off'
  },
  overrides: [
    {
      // eslint-rules/banner-single-child.js: the shell's Banner lays several parts out as columns.
      files: ['pkg/**/*.vue'],
      rules: {
        'banner-single-child':  'error',
        // The shell's fetch mixin (mixins/fetch.client.js) gives every component a `state` in data(), which wins
        // over a computed or prop of that name: the component would read the fetch state instead.
        'vue/no-reserved-keys': ['error', { reserved: ['state'] }],
      }
    },
    {
      // The compiler already reports undefined names, and the JavaScript versions of these rules
      // misfire on type-only code (names in function types, interfaces used before their declaration).
      files: [
        '*.ts',
        '*.vue'
      ],
      rules: {
        'no-undef':                                'off',
        'no-use-before-define':                    'off',
        '@typescript-eslint/no-use-before-define': [
          'error',
          {
            functions: false, classes: false, variables: false, typedefs: false, ignoreTypeReferences: true
          }
        ],
        'no-unused-vars':                    'off',
        '@typescript-eslint/no-unused-vars': [
          'warn',
          { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }
        ]
      }
    },
    {
      // Layers point one way: the diagnosis core imports nothing outside engine/, the actions nothing of the data
      // layer (which offers them), and no module imports itself through others. import/no-cycle leaves type imports
      // out, with no option to count them; no-cycle-counting-types (eslint-rules/, loaded by scripts/lint.sh)
      // counts them, and import/no-cycle stays for an eslint run without that rule.
      files: [
        'pkg/**',
        'cli/**'
      ],
      rules: {
        'import/no-cycle':            'error',
        'no-cycle-counting-types':    'error',
        'import/no-restricted-paths': [
          'error',
          {
            zones: [
              {
                target:  './pkg/node-health/engine',
                from:    './',
                except:  ['./pkg/node-health/engine'],
                message: 'The engine is the pure diagnosis core: it imports nothing outside engine/.'
              },
              {
                target:  './pkg/node-health/actions',
                from:    './pkg/node-health/data',
                message: 'The data layer offers the actions: what both need of a failed request is in requests/.'
              }
            ]
          }
        ]
      }
    },
    {
      // Command-line programs, benchmarks and the dev API stand-in print by design.
      files: [
        'cli/**',
        'bench/**',
        'mock-rancher/**',
        'scripts/**'
      ],
      rules: { 'no-console': 'off' }
    },
    {
      // Tests look up what they just built; a non-null assertion there states the test's premise.
      files: [
        'tests/**'
      ],
      rules: { '@typescript-eslint/no-non-null-assertion': 'off' }
    },
    {
      files: [
        '**/*.vue'
      ],
      rules: {
        'vue/no-v-html':   'error',
        'vue/html-indent': [
          'error',
          2
        ],
        'vue/html-closing-bracket-newline': [
          'error',
          {
            singleline: 'never',
            multiline:  'always'
          }
        ],
        'vue/html-closing-bracket-spacing': 2,
        'vue/html-end-tags':                2,
        'vue/html-quotes':                  2,
        'vue/html-self-closing':            [
          'error',
          {
            html: {
              void:      'never',
              normal:    'always',
              component: 'always'
            },
            svg:  'always',
            math: 'always'
          }
        ],
        'vue/max-attributes-per-line': [
          'error',
          {
            singleline: { max: 1 },
            multiline:  { max: 1 }
          }
        ]
      }
    },
    {
      files: [
        '*.js'
      ],
      rules: {
        'prefer-regex-literals':                'off',
        'vue/component-definition-name-casing': 'off',
        'no-unreachable-loop':                  'off',
        'computed-property-spacing':            'off'
      }
    }
  ]
};
