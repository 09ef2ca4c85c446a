/**
 * Stable codes (callers branch on them, never on messages):
 * SOURCE_INVALID: esbuild could not compile the source (a syntax error, an unresolved relative import, a bad tsconfig).
 * IMPORT_REFUSED: the source imports what a connector may not (a package other than the SDK, or the SDK as a value).
 * EMPTY_MODULE: the source compiles to nothing.
 */
export type CompileErrorCode = 'SOURCE_INVALID' | 'IMPORT_REFUSED' | 'EMPTY_MODULE';

/** Where in the project the compiler stopped: an absolute file, its 1-based line and column. */
export type SourceLocation = { file: string; line: number; column: number };

export class CompileError extends Error {
  readonly code: CompileErrorCode;
  readonly location: SourceLocation | undefined;

  constructor(code: CompileErrorCode, message: string, location?: SourceLocation) {
    super(message);
    this.name = 'CompileError';
    this.code = code;
    this.location = location;
  }
}
