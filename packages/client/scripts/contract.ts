/**
 * Writes `src/contract.generated.ts`: the server's tRPC router type and the core zod models it uses, expanded into
 * plain TypeScript types, plus the REST route of each operation. The published client then compiles without any
 * server package (`@platform/api`, `@platform/store`, `@platform/core`) or zod.
 *
 * `npm run generate -w @platform/client` rewrites it; `test/contract.test.ts` fails while it is out of date.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, '../../..');
export const contractFile = resolve(here, '../src/contract.generated.ts');

export class ContractError extends Error {
  readonly code = 'CONTRACT_UNPRINTABLE';
  constructor(message: string) {
    super(message);
    this.name = 'ContractError';
  }
}

const loadProgram = () => {
  const configPath = join(root, 'packages/api/tsconfig.json');
  const config = ts.getParsedCommandLineOfConfigFile(
    configPath,
    {},
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (d) => {
        throw new ContractError(ts.flattenDiagnosticMessageText(d.messageText, '\n'));
      },
    },
  );
  if (!config) throw new ContractError(`cannot read ${configPath}`);
  const entries = ['packages/api/src/index.ts', 'packages/core/src/index.ts'].map((p) => join(root, p));
  const program = ts.createProgram(entries, config.options);
  const checker = program.getTypeChecker();
  const moduleExports = (file: string) => {
    const source = program.getSourceFile(file);
    const symbol = source && checker.getSymbolAtLocation(source);
    if (!symbol) throw new ContractError(`cannot load ${file}`);
    return checker.getExportsOfModule(symbol);
  };
  return { program, checker, api: moduleExports(entries[0]!), core: moduleExports(entries[1]!) };
};

const identifier = /^[A-Za-z_$][A-Za-z0-9_$]*$/;
const key = (name: string) => (identifier.test(name) ? name : JSON.stringify(name));

/** Prints types structurally; a type equal to a named core model prints as that name (and is emitted once). */
const createPrinter = (checker: ts.TypeChecker, program: ts.Program, named: Map<ts.Type, string>) => {
  const used = new Set<string>();
  const stack = new Set<ts.Type>();

  /** A named type of the standard library (`Date`); `Record<…>` and other anonymous types are expanded. */
  const isLibType = (type: ts.Type) =>
    type.symbol !== undefined &&
    !type.symbol.name.startsWith('__') &&
    (type.symbol.declarations?.some((d) => program.isSourceFileDefaultLibrary(d.getSourceFile())) ?? false);

  const printUnion = (members: readonly ts.Type[]): string => {
    const hasTrue = members.some((m) => checker.typeToString(m) === 'true');
    const hasFalse = members.some((m) => checker.typeToString(m) === 'false');
    const parts = members
      .filter((m) => !(hasTrue && hasFalse && m.flags & ts.TypeFlags.BooleanLiteral))
      .map((m) => wrap(print(m)));
    if (hasTrue && hasFalse) parts.push('boolean');
    return [...new Set(parts)].join(' | ');
  };

  const print = (type: ts.Type, top = false): string => {
    const name = named.get(type);
    if (name && !top) {
      used.add(name);
      return name;
    }
    const f = type.flags;
    // A service that answers without a body resolves to undefined on the client.
    if (f & ts.TypeFlags.Void) return 'undefined';
    if (
      f &
      (ts.TypeFlags.Any |
        ts.TypeFlags.Unknown |
        ts.TypeFlags.String |
        ts.TypeFlags.Number |
        ts.TypeFlags.Boolean |
        ts.TypeFlags.BigInt |
        ts.TypeFlags.Null |
        ts.TypeFlags.Undefined |
        ts.TypeFlags.Never |
        ts.TypeFlags.Literal |
        ts.TypeFlags.TemplateLiteral |
        ts.TypeFlags.ESSymbol)
    ) {
      return checker.typeToString(type);
    }
    if (type.isUnion()) return printUnion(type.types);
    if (type.isIntersection()) return type.types.map((m) => wrap(print(m))).join(' & ');
    if (f & ts.TypeFlags.NonPrimitive) return 'object';
    if (!(f & ts.TypeFlags.Object)) throw new ContractError(`unexpected type ${checker.typeToString(type)}`);
    if (checker.isArrayType(type)) {
      const [element] = checker.getTypeArguments(type as ts.TypeReference);
      const readonly = type.symbol?.name === 'ReadonlyArray' ? 'readonly ' : '';
      return `${readonly}${wrap(print(element!))}[]`;
    }
    if (checker.isTupleType(type)) {
      return `[${checker
        .getTypeArguments(type as ts.TypeReference)
        .map((t) => print(t))
        .join(', ')}]`;
    }
    if (isLibType(type)) return checker.typeToString(type);
    if (type.getCallSignatures().length || type.getConstructSignatures().length) {
      throw new ContractError(`a function type cannot travel as JSON: ${checker.typeToString(type)}`);
    }
    if (stack.has(type)) throw new ContractError(`recursive unnamed type ${checker.typeToString(type)}`);
    stack.add(type);
    const members = checker.getPropertiesOfType(type).map((property) => {
      const optional = property.flags & ts.SymbolFlags.Optional ? '?' : '';
      const declaration = property.valueDeclaration;
      const readonly =
        declaration && ts.getCombinedModifierFlags(declaration) & ts.ModifierFlags.Readonly
          ? 'readonly '
          : '';
      const propertyType = checker.getTypeOfSymbol(property);
      // `name?: T` already allows undefined; printing it again would only add noise.
      const printed =
        optional && propertyType.isUnion()
          ? printUnion(propertyType.types.filter((t) => !(t.flags & ts.TypeFlags.Undefined)))
          : print(propertyType);
      return `${readonly}${key(property.name)}${optional}: ${printed};`;
    });
    for (const info of checker.getIndexInfosOfType(type)) {
      members.push(`[key: ${checker.typeToString(info.keyType)}]: ${print(info.type)};`);
    }
    stack.delete(type);
    return members.length ? `{ ${members.join(' ')} }` : 'Record<string, never>';
  };
  const wrap = (printed: string) =>
    /[|&]/.test(printed) && !printed.startsWith('{') ? `(${printed})` : printed;
  return { print, used };
};

const property = (checker: ts.TypeChecker, type: ts.Type, ...path: string[]): ts.Type => {
  let current = type;
  for (const name of path) {
    const symbol = current.getProperty(name);
    if (!symbol) throw new ContractError(`no property ${path.join('.')} on ${checker.typeToString(type)}`);
    current = checker.getTypeOfSymbol(symbol);
  }
  return current;
};

/** `form`: the name of the file parts of a multipart/form-data body (the REST client sends `body.files` as them). */
type Route = { method: string; path: string; query: string[]; form?: string };

/** The REST route of every JSON operation, from the operation table itself. */
const loadRoutes = async (): Promise<Record<string, Route>> => {
  const { operations } = await import('@platform/api');
  const routes: Record<string, Route> = {};
  for (const operation of operations) {
    if ('produces' in operation && operation.produces) continue;
    routes[operation.id] = {
      method: operation.method,
      path: operation.path,
      query: Object.keys(('query' in operation && operation.query?.shape) || {}),
      ...('multipart' in operation && operation.multipart ? { form: operation.multipart.fileField } : {}),
    };
  }
  return routes;
};

const format = (text: string) =>
  execFileSync(join(root, 'node_modules/.bin/biome'), ['format', `--stdin-file-path=${contractFile}`], {
    input: text,
    cwd: root,
    encoding: 'utf8',
  });

/** The text `src/contract.generated.ts` must hold. */
export const renderContract = async (): Promise<string> => {
  const { program, checker, api, core } = loadProgram();

  // Core's zod models: every export that is both a schema and the type inferred from it.
  const named = new Map<ts.Type, string>();
  const models = new Map<string, ts.Type>();
  for (const symbol of core) {
    if (!(symbol.flags & ts.SymbolFlags.TypeAlias && symbol.flags & ts.SymbolFlags.Variable)) continue;
    const type = checker.getDeclaredTypeOfSymbol(symbol);
    const isLiteralUnion =
      type.isUnion() &&
      type.types.every((t) => t.flags & (ts.TypeFlags.StringLiteral | ts.TypeFlags.NumberLiteral));
    if (!(type.flags & ts.TypeFlags.Object) && !isLiteralUnion) continue;
    if (!named.has(type)) named.set(type, symbol.name);
    models.set(symbol.name, type);
  }
  const { print, used } = createPrinter(checker, program, named);

  const routerSymbol = api.find((s) => s.name === 'AppRouter');
  if (!routerSymbol) throw new ContractError('@platform/api exports no AppRouter');
  const router = checker.getDeclaredTypeOfSymbol(routerSymbol);
  const errorShape = print(property(checker, router, '_def', '_config', '$types', 'errorShape'));
  const record = property(checker, router, '_def', 'record');
  const areas = checker.getPropertiesOfType(record).map((area) => {
    const procedures = checker.getPropertiesOfType(checker.getTypeOfSymbol(area)).map((symbol) => {
      const procedure = checker.getTypeOfSymbol(symbol);
      const kind = checker.typeToString(property(checker, procedure, '_def', 'type'));
      const wrapper = kind === '"query"' ? 'TRPCQueryProcedure' : 'TRPCMutationProcedure';
      const input = print(property(checker, procedure, '_def', '$types', 'input'));
      const output = print(property(checker, procedure, '_def', '$types', 'output'));
      return `${key(symbol.name)}: ${wrapper}<{ input: ${input}; output: ${output}; meta: object }>;`;
    });
    return `${key(area.name)}: { ${procedures.join(' ')} };`;
  });

  // Every model is emitted, used by the router or not: they are the REST model types of the package.
  const emitted = [...models.keys()].sort().map((name) => {
    const type = models.get(name)!;
    const alias = named.get(type);
    return `export type ${name} = ${alias && alias !== name ? alias : print(type, true)};`;
  });
  for (const name of used) if (!models.has(name)) throw new ContractError(`model ${name} not emitted`);

  const routes = await loadRoutes();
  const { errorStatus } = await import('@platform/core');
  const text = [
    '// Generated by scripts/contract.ts from the operation table of @platform/api and the zod models of',
    '// @platform/core: do not edit. `npm run generate -w @platform/client` rewrites it.',
    "import type { TRPCBuiltRouter, TRPCMutationProcedure, TRPCQueryProcedure } from '@trpc/server';",
    '',
    ...emitted,
    '',
    '/** The `error` of a failed tRPC call: the HTTP status, the stable error code and the field errors in `data`. */',
    `export type PlatformErrorShape = ${errorShape};`,
    '',
    '/** The tRPC router of the platform, as its server builds it from the operation table. */',
    'export type AppRouter = TRPCBuiltRouter<',
    '  { ctx: object; meta: object; errorShape: PlatformErrorShape; transformer: false },',
    `  { ${areas.join(' ')} }`,
    '>;',
    '',
    '/** The REST method, path and query parameters of each procedure that answers JSON. */',
    `export const restRoutes = ${JSON.stringify(routes)} as const;`,
    '',
    '/** The stable error codes of the server and the HTTP status each answers with. */',
    `export const errorStatus = ${JSON.stringify(errorStatus)} as const;`,
    '',
  ].join('\n');
  return format(text);
};

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const text = await renderContract();
  const before = (() => {
    try {
      return readFileSync(contractFile, 'utf8');
    } catch {
      return '';
    }
  })();
  if (before !== text) writeFileSync(contractFile, text);
  console.log(`${contractFile}: ${before === text ? 'up to date' : 'written'}`);
}
