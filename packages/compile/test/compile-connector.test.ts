import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { CompileError, compileConnector } from '../src/index.ts';

/** A project folder with connector.ts (and tsconfig.json when given), as a developer lays one out. */
const project = (source: string, tsconfig?: unknown): string => {
  const dir = mkdtempSync(join(tmpdir(), 'compile-'));
  writeFileSync(join(dir, 'connector.ts'), source);
  if (tsconfig !== undefined) writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify(tsconfig));
  return join(dir, 'connector.ts');
};

const body = `export default class Example implements Media.MediaConnector {
  constructor(private readonly runtime: Connector.ConnectorRuntimeContext) {}
  getCapabilities(): Media.MediaConnectorCapabilities { return { query: true, detail: true, filtering: false, metadata: false }; }
}
`;

const imports = {
  'import type': `import type { Connector, Media } from '@chili-publish/studio-connectors';\n`,
  'inline type imports': `import { type Connector, type Media } from '@chili-publish/studio-connectors';\n`,
  'a value import used as types': `import { Connector, Media } from '@chili-publish/studio-connectors';\n`,
  'a namespace import and a subpath': `import * as SDK from '@chili-publish/studio-connectors/dist/index';\nimport type { Connector, Media } from '@chili-publish/studio-connectors';\nexport type Runtime = SDK.Connector.ConnectorRuntimeContext;\n`,
  'a bare side-effect import': `import '@chili-publish/studio-connectors';\nimport type { Connector, Media } from '@chili-publish/studio-connectors';\n`,
};

const tsconfigs = {
  'no tsconfig.json': undefined,
  verbatimModuleSyntax: {
    compilerOptions: { verbatimModuleSyntax: true, target: 'ESNext', module: 'ESNext' },
  },
  preserveValueImports: { compilerOptions: { preserveValueImports: true, isolatedModules: true } },
  'an extends that is not installed': { extends: '@tsconfig/strictest/tsconfig.json' },
};

describe('the SDK vanishes from the module', () => {
  for (const [form, header] of Object.entries(imports)) {
    test.each(Object.entries(tsconfigs))(`${form}, %s`, async (_name, tsconfig) => {
      const script = await compileConnector(project(header + body, tsconfig), { strictImports: true });
      expect(script).not.toMatch(/\bimport\b/);
      expect(script).not.toContain('studio-connectors');
      expect(script).toMatch(/export\s*\{\s*Example as default\s*\}/);
    });
  }
});

describe('what a connector may not do', () => {
  const failure = async (entry: string, strictImports = true): Promise<CompileError> => {
    const error = await compileConnector(entry, { strictImports }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(CompileError);
    return error as CompileError;
  };

  test('an SDK name used as a value: IMPORT_REFUSED naming it, with its place', async () => {
    const entry = project(
      `import { Media } from '@chili-publish/studio-connectors';\nexport default Media;\n`,
      {
        compilerOptions: { verbatimModuleSyntax: true },
      },
    );
    const error = await failure(entry);
    expect(error.code).toBe('IMPORT_REFUSED');
    expect(error.message).toBe(
      'uses "Media" of @chili-publish/studio-connectors as a value, but the SDK has types only; use it in types only',
    );
    expect(error.location).toMatchObject({ file: entry, line: 1 });
  });

  test('another package: IMPORT_REFUSED under strict imports, bundled otherwise', async () => {
    const entry = project(`import { x } from 'left-pad';\nexport default class A { y = x; }\n`);
    const error = await failure(entry);
    expect(error.code).toBe('IMPORT_REFUSED');
    expect(error.message).toMatch(/^imports "left-pad": a connector may import only relative files/);
    expect((await failure(entry, false)).code).toBe('SOURCE_INVALID');
  });

  test('a syntax error: SOURCE_INVALID at its line; an empty source: EMPTY_MODULE', async () => {
    const broken = await failure(project('export default class {\n  x(\n}\n'));
    expect(broken.code).toBe('SOURCE_INVALID');
    expect(broken.location?.line).toBe(3);
    expect((await failure(project('// nothing yet\n'))).code).toBe('EMPTY_MODULE');
  });
});
