// The repository's own lint (`npm run lint`, part of `npm test`): ESLint's and typescript-eslint's
// recommended rules (syntax-level, no type information, so it stays fast), with the few that fight the
// code base's deliberate style turned off; see the comments. Nothing is ignored file by file.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    ignores: ['node_modules/**', 'dist/**', 'test/out/**', 'bench/out/**', '.cache/**', 'test/grammar-tm/generated/**', 'client/src/webview/vendor/**'],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      ecmaVersion: 2022,
      sourceType: 'module',
      globals: {
        // Node and browser globals the scripts and the webview use
        process: 'readonly', console: 'readonly', Buffer: 'readonly', setTimeout: 'readonly', clearTimeout: 'readonly',
        setInterval: 'readonly', clearInterval: 'readonly', setImmediate: 'readonly', queueMicrotask: 'readonly',
        URL: 'readonly', TextEncoder: 'readonly', TextDecoder: 'readonly', performance: 'readonly', structuredClone: 'readonly',
        AbortController: 'readonly', fetch: 'readonly', globalThis: 'readonly', __filename: 'readonly', __dirname: 'readonly', require: 'readonly', module: 'writable',
        window: 'readonly', document: 'readonly', acquireVsCodeApi: 'readonly', navigator: 'readonly', HTMLElement: 'readonly',
        requestAnimationFrame: 'readonly', getComputedStyle: 'readonly', ResizeObserver: 'readonly', MouseEvent: 'readonly', WheelEvent: 'readonly', KeyboardEvent: 'readonly', Event: 'readonly',
      },
    },
    rules: {
      // unused names are an error, except `_`-prefixed ones (kept on purpose, e.g. to drop a field)
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none', ignoreRestSiblings: true }],
      // `any` appears at protocol boundaries and in tests that inspect JSON
      '@typescript-eslint/no-explicit-any': 'off',
      // `!` after lookups the code has just checked
      '@typescript-eslint/no-non-null-assertion': 'off',
      // regular expressions for control characters are intended (escaping, tokenising)
      'no-control-regex': 'off',
      // tests match exact spacing in expected output literally
      'no-regex-spaces': 'off',
      // the no-eval family is what matters: nothing a user writes is executed
      'no-eval': 'error',
      'no-implied-eval': 'error',
      'no-new-func': 'error',
    },
  },
);
