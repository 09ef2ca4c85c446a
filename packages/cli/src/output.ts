import { type CliError, ServerError } from './errors.ts';

export type Writer = (text: string) => void;

/**
 * Everything the CLI prints goes through here. Secrets the command has seen (the token, secret fields of an
 * auth data file) are registered and replaced by `***` in every line, so no code path can print one by mistake.
 */
export class Output {
  json: boolean;
  verbose: boolean;
  readonly #stdout: Writer;
  readonly #stderr: Writer;
  readonly #secrets = new Set<string>();

  constructor(options: { json: boolean; verbose: boolean; stdout: Writer; stderr: Writer }) {
    this.json = options.json;
    this.verbose = options.verbose;
    this.#stdout = options.stdout;
    this.#stderr = options.stderr;
  }

  /** Set once the global options are parsed (errors of commander itself come before that). */
  configure(options: { json: boolean; verbose: boolean }): void {
    this.json = options.json;
    this.verbose = options.verbose;
  }

  /** Values shorter than 4 characters are too common to redact without mangling unrelated output. */
  addSecret(value: string): void {
    if (value.length < 4) return;
    // Each line of a multi-line secret (a PEM key) on its own: once inside JSON, maybe JSON inside JSON,
    // the line breaks are escaped any number of times, but the lines themselves stay intact.
    const lines = value.split(/\r?\n/).filter((line) => line.trim().length >= 8);
    for (const variant of lines.length > 1 ? [value, ...lines] : [value]) {
      let escaped = variant;
      for (let depth = 0; depth < 3; depth += 1) {
        this.#secrets.add(escaped);
        escaped = JSON.stringify(escaped).slice(1, -1);
      }
    }
  }

  redact(text: string): string {
    let out = text;
    // Longest first, so a secret containing another is replaced whole.
    for (const secret of [...this.#secrets].sort((a, b) => b.length - a.length)) {
      out = out.split(secret).join('***');
    }
    return out;
  }

  /** The command's result: `text` for people, `data` with `--json`. */
  result(text: string, data: unknown): void {
    this.#stdout(`${this.redact(this.json ? JSON.stringify(data) : text)}\n`);
  }

  /** A progress or instruction line for people (stderr with `--json`, so stdout stays machine-readable). */
  info(line: string): void {
    if (this.json) this.#stderr(`${this.redact(line)}\n`);
    else this.#stdout(`${this.redact(line)}\n`);
  }

  /** A summary for people beside a result whose lines on stdout are counted (one per test): on stderr. */
  note(line: string): void {
    this.#stderr(`${this.redact(line)}\n`);
  }

  /** Detail shown only with `--verbose`, on stderr. */
  debug(line: string): void {
    if (this.verbose) this.#stderr(`${this.redact(line)}\n`);
  }

  /** One line on stderr (one JSON line with `--json`); `--verbose` adds the details below it. */
  error(error: CliError): void {
    if (this.json) {
      const body: Record<string, unknown> = { error: { code: error.code, message: error.message } };
      // The platform's own status and code (`NO_DEFAULT_CLASS`, say), for a script to act on.
      if (error instanceof ServerError) {
        Object.assign(body.error as object, {
          status: error.status,
          ...(typeof error.problem?.code === 'string' ? { serverCode: error.problem.code } : {}),
        });
      }
      if (this.verbose && error.details.length > 0)
        Object.assign(body.error as object, { details: error.details });
      this.#stderr(`${this.redact(JSON.stringify(body))}\n`);
      return;
    }
    // One line, whatever the message carries: a library's reason (OpenSSL's, for one) may hold line breaks.
    this.#stderr(`${this.redact(`error: ${error.message.replace(/\s*\n\s*/g, ' ')}`)}\n`);
    if (this.verbose) for (const line of error.details) this.#stderr(`${this.redact(line)}\n`);
  }
}
