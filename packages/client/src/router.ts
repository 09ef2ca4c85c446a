export type { AppRouter } from '@platform/api';
