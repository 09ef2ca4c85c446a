import { AuthType } from '@platform/core';
import { CONNECTOR_SOURCE } from '../connector-project.ts';
import { connectorSource } from './connector-source.ts';

/**
 * The SDK's release on npm that this CLI is built and tested against (its own dependency): a range no published
 * release satisfies would make `npm install` fail in every new project.
 */
export const SDK_RANGE = '^1.14.0';

export type ScaffoldOptions = { packageName: string; connectorName: string; type: 'media' | 'data' };

/**
 * The files of a new connector project (docs/connector-cli.md): what `publish` accepts as it is. `main` names
 * the build output, which does not exist yet, so `publish` compiles `connector.ts`. Every authorization type is
 * listed in `supportedAuth` and one placeholder domain in `allowedDomains`, both meant to be narrowed.
 */
export const projectFiles = ({
  packageName,
  connectorName,
  type,
}: ScaffoldOptions): Record<string, string> => {
  const json = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;
  return {
    'package.json': json({
      name: packageName,
      description: '',
      version: '1.0.0',
      main: 'out/connector.js',
      config: {
        connectorName,
        type,
        options: {},
        mappings: {},
        supportedAuth: [...AuthType.options],
        allowedDomains: ['api.example.com'],
      },
      license: 'UNLICENSED',
      devDependencies: { '@chili-publish/studio-connectors': SDK_RANGE, typescript: '^5.9.3' },
    }),
    'tsconfig.json': json({
      compilerOptions: {
        target: 'ES2020',
        module: 'ES2020',
        moduleResolution: 'bundler',
        lib: ['ES2020'],
        strict: true,
        noEmit: true,
        skipLibCheck: true,
      },
      include: [CONNECTOR_SOURCE],
    }),
    [CONNECTOR_SOURCE]: connectorSource(type),
    '.gitignore': 'node_modules/\nout/\n',
  };
};
