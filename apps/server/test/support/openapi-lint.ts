import { createConfig, lintFromString } from '@redocly/openapi-core';
import { Document, Spectral } from '@stoplight/spectral-core';
import parsers from '@stoplight/spectral-parsers';
import { oas } from '@stoplight/spectral-rulesets';

/** Redocly's `recommended` rule set: every error and warning, as `rule: message at pointer`. */
export const redoclyProblems = async (source: string): Promise<string[]> => {
  const problems = await lintFromString({
    source,
    absoluteRef: 'openapi.json',
    config: await createConfig({ extends: ['recommended'] }),
  });
  return problems.map((p) => `${p.severity} ${p.ruleId}: ${p.message} at ${p.location[0]?.pointer}`);
};

/** Spectral's `spectral:oas` rule set, as the Spectral CLI runs it: errors, warnings and hints alike. */
export const spectralProblems = async (source: string): Promise<string[]> => {
  const spectral = new Spectral();
  spectral.setRuleset({ extends: [oas] } as never);
  const results = await spectral.run(new Document(source, parsers.Json, 'openapi.json'));
  return results.map((r) => `${r.severity} ${String(r.code)}: ${r.message} at /${r.path.join('/')}`);
};
