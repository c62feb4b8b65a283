/**
 * The lint rule that keeps the shell's Banner from laying its content out in columns
 * (eslint-rules/banner-single-child.js): its content box is a flex row, so each part given to it side by side
 * becomes a column.
 */
import { join } from 'path';

// eslint 7 ships no type declarations.
const { ESLint } = require('eslint');

const eslint = new ESLint({
  useEslintrc: false,
  rulePaths:   [join(__dirname, '../../../eslint-rules')],
  baseConfig:  {
    parser:        require.resolve('vue-eslint-parser'),
    parserOptions: { sourceType: 'module', ecmaVersion: 2020 },
    rules:         { 'banner-single-child': 'error' },
  },
});

async function lint(template: string): Promise<string[]> {
  const [result] = await eslint.lintText(`<template>\n${ template }\n</template>\n`, { filePath: join(__dirname, 'Example.vue') });

  return result.messages.map((m: { line: number; message: string }) => `${ m.line }: ${ m.message }`);
}

describe('banner-single-child', () => {
  it('flags a Banner given two paragraphs, a heading beside its list, or text beside an element', async() => {
    expect(await lint('<Banner color="warning">\n  <p>Risk</p>\n  <p v-if="etcd">etcd</p>\n</Banner>')).toEqual([
      '2: Banner content is a flex row: wrap its 2 parts in one <div>, or they show as columns.',
    ]);
    expect(await lint('<div>\n  <Banner>\n    <p>Steps</p>\n    <MessageList :messages="steps" />\n  </Banner>\n</div>')).toHaveLength(1);
    expect(await lint('<Banner>\n  {{ intro }}\n  <button>Try again</button>\n</Banner>')).toHaveLength(1);
  });

  it('passes one element, text alone, and a v-if chain (only one of it is drawn)', async() => {
    expect(await lint('<Banner>\n  <div>\n    <p>Risk</p>\n    <p>etcd</p>\n  </div>\n</Banner>')).toEqual([]);
    expect(await lint('<Banner color="info">\n  {{ text(reason) }}\n</Banner>')).toEqual([]);
    expect(await lint('<Banner>\n  <p v-if="a">A</p>\n  <p v-else-if="b">B</p>\n  <p v-else>C</p>\n</Banner>')).toEqual([]);
    expect(await lint('<Other>\n  <p>A</p>\n  <p>B</p>\n</Other>')).toEqual([]);
  });
});
