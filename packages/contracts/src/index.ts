export * from './envelope.ts';
export * from './session.ts';
