export * from './admin.ts';
export * from './environment-api.ts';
