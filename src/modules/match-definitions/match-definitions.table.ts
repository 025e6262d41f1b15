/** The Match definitions' table lives in the definitions module, which writes it; this path still names it for older imports. */
export * from '../definitions/match-definitions.table.js';
