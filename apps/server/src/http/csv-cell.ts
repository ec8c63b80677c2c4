/**
 * The exports' CSV cell, safe to open in a spreadsheet (formula guard, issue 20): the shared writer's, in
 * `@ipp/contracts/csv`. Kept for the imports that name this file.
 */
export { csvCell } from '@ipp/contracts/csv';
