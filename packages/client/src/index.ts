export type * from './contract.generated.ts';
export {
  createRestClient,
  type RequestOptions,
  type RestClient,
  type RestClientOptions,
  type RestMethod,
} from './rest-client.ts';
export { type ErrorCode, isPlatformApiError, PlatformApiError, type PlatformProblem } from './rest-error.ts';
export { authorizationHeader, type TokenSource } from './token.ts';
export {
  createPlatformClient,
  type PlatformClient,
  type RouterInputs,
  type RouterOutputs,
} from './trpc-client.ts';
