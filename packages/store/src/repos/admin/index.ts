export * from './environments.ts';
export * from './health.ts';
export * from './idp-domains.ts';
export * from './memberships.ts';
export * from './renders.ts';
export * from './subscription-figures.ts';
export * from './subscriptions.ts';
export * from './users.ts';
