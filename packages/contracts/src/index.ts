export * from './envelope.ts';
export * from './paging.ts';
export * from './routes.ts';
export * from './session.ts';
export * from './settings.ts';
export * from './teams.ts';
export * from './translations.ts';
export * from './users.ts';
