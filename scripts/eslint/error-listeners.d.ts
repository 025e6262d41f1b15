// Types of the ESLint rule in error-listeners.js, for the test that runs it (tests/architecture/error-listeners.test.ts).
import type { ESLint, Rule } from 'eslint';

export const errorListeners: Rule.RuleModule;
declare const plugin: ESLint.Plugin;
export default plugin;
