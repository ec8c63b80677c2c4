/** The zod-free entry for calls (`@ipp/contracts/endpoints`): every endpoint as the namespace EP, and URL helpers. */
export * as EP from './endpoints.ts';
export { pathOf, urlPathOf, type Endpoint } from './endpoint-paths.ts';
