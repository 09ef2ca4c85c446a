export { type CompileOptions, compileConnector } from './compile-connector.ts';
export { CompileError, type CompileErrorCode, type SourceLocation } from './compile-error.ts';
export { SDK_PACKAGE } from './sdk-types-only.ts';
