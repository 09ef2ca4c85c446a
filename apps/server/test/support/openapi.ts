import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';

type Document = {
  paths: Record<
    string,
    Record<string, { responses: Record<string, { content?: Record<string, { schema: unknown }> }> }>
  >;
  components: { schemas: Record<string, unknown> };
};

/**
 * Validates response bodies against the platform's own served OpenAPI document, as an external client
 * generating code from it would rely on.
 */
export const openApiValidator = (document: Document) => {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats.default(ajv);
  ajv.addSchema({ $id: 'openapi', components: document.components });
  const rewrite = (schema: unknown): unknown =>
    JSON.parse(JSON.stringify(schema).replaceAll('"#/components/', '"openapi#/components/'));
  return (path: string, method: string, status: number, body: unknown): string[] => {
    const operation = document.paths[path]?.[method.toLowerCase()];
    if (!operation) return [`no operation ${method} ${path} in the document`];
    const response = operation.responses[String(status)];
    if (!response) return [`status ${status} is not documented for ${method} ${path}`];
    const schema = response.content?.['application/json']?.schema;
    if (!schema) return body === undefined ? [] : ['a body was returned where none is documented'];
    const validate = ajv.compile(rewrite(schema) as object);
    return validate(body) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath} ${e.message}`);
  };
};
