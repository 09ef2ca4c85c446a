import { dirname, resolve } from 'node:path';
import type { Command } from 'commander';
import type { Context } from '../context.ts';
import { CliError, UsageError } from '../errors.ts';
import { compileLocal, readLocalProject } from '../local/local-project.ts';
import { logErrorLines } from '../local/log-errors.ts';
import { runTests } from '../local/run-tests.ts';
import { readTestFile } from '../local/test-file.ts';
import type { RunAction } from './action.ts';

/** A name or a reason on one line, whatever line breaks it holds: stdout has exactly one line per test. */
const oneLine = (text: string): string => text.replace(/\s*[\r\n]+\s*/g, ' ');

/**
 * `test [project] -t tests.json`: one line per test on stdout and nothing else there, the count on stderr; exit 1
 * when any fails (docs/connector-cli.md).
 */
export const testProject = async (ctx: Context, dir: string | undefined, options: { testFile?: string }) => {
  if (options.testFile === undefined) {
    throw new UsageError('missing required option -t <file>; give the test file, e.g. -t tests.json');
  }
  const local = await readLocalProject(dir);
  const testFile = resolve(options.testFile);
  const file = await readTestFile(testFile);
  const logs = logErrorLines(ctx.out);
  const outcomes = await runTests(
    await compileLocal(local),
    local.options,
    file,
    dirname(testFile),
    logs.onLogError,
  );
  logs.done();
  // With --json every outcome is in the result: stderr keeps only the failure's one line.
  if (!ctx.out.json) {
    for (const outcome of outcomes) {
      ctx.out.info(
        oneLine(
          outcome.passed ? `PASS: ${outcome.name}` : `FAIL: ${outcome.name}: ${outcome.reasons.join('; ')}`,
        ),
      );
    }
  }
  const failed = outcomes.filter((o) => !o.passed).length;
  const passed = outcomes.length - failed;
  if (ctx.out.json) ctx.out.result('', { passed, failed, tests: outcomes });
  // The count on stderr: as the error line when a test failed, else as a note.
  else if (failed === 0) ctx.out.note(`${passed} of ${outcomes.length} tests passed`);
  if (failed > 0) {
    throw new CliError(
      'CONNECTOR_FAILED',
      `${failed} of ${outcomes.length} tests failed; see ${ctx.out.json ? 'the tests of the result' : 'the FAIL lines above'} and fix connector.ts or the test file`,
    );
  }
};

export const registerTest = (program: Command, run: RunAction) =>
  program
    .command('test')
    .summary('run a test file (the platform CLI format) against the connector')
    .description(
      'Run each test of the file in the platform runtime: the method with its arguments, every fetch checked against asserts.fetch and answered with its response. setup.runtime_options are the connector options.',
    )
    .argument('[project]', 'the connector project directory (default .)')
    .option('-t, --testFile <file>', 'the test file (JSON)')
    .addHelpText(
      'after',
      '\nExamples:\n  connector-cli test -t tests.json\n  connector-cli test ./my-connector -t tests.generated.json',
    )
    .action((dir: string | undefined, options: { testFile?: string }) =>
      run((ctx) => testProject(ctx, dir, options)),
    );
