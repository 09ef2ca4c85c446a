export * from './admin.ts';
export * from './audit.ts';
export * from './environment-api.ts';
