// Most of @rancher/shell is plain JavaScript, and shell's own type declarations
// (types/shell/index.d.ts) cover only part of it. Inside the dashboard repository the compiler infers
// types from those .js files; from node_modules it does not load them and, under "strict", rejects the
// import (TS7016). This pattern types an otherwise untyped shell module as `any`; modules that do ship
// types (shell's .ts files and its declared modules) keep their real types, since the pattern only
// applies when resolution finds no types.
declare module '@shell/*';

// Used by the component test set-up; the package ships no declarations.
declare module 'vue-select';
