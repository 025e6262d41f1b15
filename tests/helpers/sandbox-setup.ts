/**
 * Every test file runs with the sandbox installed, as every process of the
 * service does (createServices): the language's costly evaluations go to its
 * worker threads, whether a test builds the services or calls the domain or
 * the engine directly.
 */
import { installSandbox } from '../../src/runtime/sandbox/sandbox.js';

installSandbox();
