import type { Connector } from '@chili-publish/studio-connectors';

// The data connector types of the platform's connector interface (the SDK release on npm predates them).
type PageConfig = {
  filters?: { property: string; value: string; type?: string }[] | null;
  sorting?: { property: string; direction: 'asc' | 'desc' }[] | null;
  limit: number;
  continuationToken?: string | null;
};
type DataItem = Record<string, string | number | boolean | null>;
type DataPage = { data: DataItem[]; continuationToken?: string | null };
type DataModelProperty = { name: string; type: 'singleLine' | 'multiLine' | 'number' | 'boolean' | 'date' };
type DataModel = { properties: DataModelProperty[] };
type DataConnectorCapabilities = { filtering: boolean; sorting: boolean; model: boolean };

type ProductsPage = { rows: DataItem[]; nextCursor: string | null };
type Schema = { fields: { name: string; type: 'string' | 'text' | 'number' | 'boolean' | 'date' }[] };

const modelTypes: Record<Schema['fields'][number]['type'], DataModelProperty['type']> = {
  string: 'singleLine',
  text: 'multiLine',
  number: 'number',
  boolean: 'boolean',
  date: 'date',
};

/**
 * A data connector on a static key (the platform injects the key header): pages of product rows with a cursor
 * (`continuationToken`), and the model built from the API's schema. It talks to the platform's own stand-in catalogue
 * (`/dev/stand-in/data` of a development server).
 */
export default class StandInDataConnector {
  constructor(private readonly runtime: Connector.ConnectorRuntimeContext) {}

  async getPage(config: PageConfig): Promise<DataPage> {
    const params = [`limit=${config.limit > 0 ? config.limit : 10}`];
    if (config.continuationToken) params.push(`cursor=${encodeURIComponent(config.continuationToken)}`);
    const body = (await this.json(`/data/products?${params.join('&')}`)) as ProductsPage;
    return { data: body.rows, continuationToken: body.nextCursor };
  }

  async getModel(): Promise<DataModel> {
    const schema = (await this.json('/data/schema')) as Schema;
    return { properties: schema.fields.map((field) => ({ name: field.name, type: modelTypes[field.type] })) };
  }

  getConfigurationOptions(): Connector.ConnectorConfigValue[] | null {
    return [];
  }

  getCapabilities(): DataConnectorCapabilities {
    return { filtering: false, sorting: false, model: true };
  }

  private async json(path: string): Promise<unknown> {
    const base = this.runtime.options.baseUrl;
    if (typeof base !== 'string' || base === '') {
      throw new ConnectorHttpError(
        400,
        'the option baseUrl is not set; publish the connector with -ro baseUrl=<url>',
      );
    }
    const response = await this.runtime.fetch(`${base.replace(/\/+$/, '')}${path}`, {
      method: 'GET',
      headers: { Accept: 'application/json' },
    });
    if (!response.ok) throw new ConnectorHttpError(response.status, `GET ${path}: ${response.statusText}`);
    return JSON.parse(response.text);
  }
}
