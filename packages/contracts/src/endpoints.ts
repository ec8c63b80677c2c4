/**
 * Every HTTP call of the server, each written once: its method and path. The server registers each route from here
 * with the schemas in api.ts (apps/server/src/http/endpoint.ts), the web calls each from here (apps/web/src/api/client.ts),
 * the simulator posts to the device ones; test/endpoints.test.ts checks that the server registers exactly these.
 * One file per server route file (endpoints/*.ts), so a bundle chunk carries only the calls its code makes: import them as a namespace,
 * `import * as EP from '@ipp/contracts/endpoints'` (EP.groupIndex); the server gets the same namespace as
 * `EP` from '@ipp/contracts'. The Endpoint type and pathOf/urlPathOf are in endpoint-paths.ts.
 * Paths are under /api unless `root` (spec §7: uploads, folders/*, enhance). Names are the path in camelCase; the POST
 * twin of a GET path ends in Save (settingLogoSave, aiThresholdsSave).
 * Zod-free, so the console's shell can import it.
 */
export * from './endpoints/bulk.ts';
export * from './endpoints/identify.ts';
export * from './endpoints/folders.ts';
export * from './endpoints/teams.ts';
export * from './endpoints/group-view.ts';
export * from './endpoints/undo.ts';
export * from './endpoints/users.ts';
export * from './endpoints/auth.ts';
export * from './endpoints/views.ts';
export * from './endpoints/trends.ts';
export * from './endpoints/translations.ts';
export * from './endpoints/account.ts';
export * from './endpoints/rois.ts';
export * from './endpoints/events.ts';
export * from './endpoints/alarms.ts';
export * from './endpoints/settings.ts';
export * from './endpoints/ipps.ts';
export * from './endpoints/taxa.ts';
export * from './endpoints/roles.ts';
export * from './endpoints/recognition.ts';
export * from './endpoints/ecology.ts';
export * from './endpoints/label-history.ts';
export * from './endpoints/device.ts';
export * from './endpoints/completeness.ts';
export * from './endpoints/transfer.ts';
