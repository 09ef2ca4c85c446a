export {
  type AppRouter,
  createPlatformClient,
  type PlatformClient,
  type RouterInputs,
  type RouterOutputs,
  type TokenSource,
} from './trpc-client.ts';
