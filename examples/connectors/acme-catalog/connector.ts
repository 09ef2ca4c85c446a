import type { Connector } from '@chili-publish/studio-connectors';

// The data connector types of the SDK's current interface (its release on npm, 1.14, predates them): pages both
// ways (`BidirectionalPageConfig`) and one row with the tokens around it (`getPageItemById`).
type Sorting = { property: string; direction: 'asc' | 'desc' };
type PageConfig = {
  filters?: { property: string; value: string }[] | null;
  sorting?: Sorting[] | null;
  limit: number;
  continuationToken?: string | null;
  previousPageToken?: string | null;
};
type PageItemOptions = { limit: number; sorting?: Sorting[] | null };
type DataItem = Record<string, string | number | boolean | null>;
type DataPage = { data: DataItem[]; continuationToken: string | null; previousPageToken: string | null };
type DataPageItem = { data: DataItem; continuationToken: string | null; previousPageToken: string | null };
type DataModelProperty = { name: string; type: 'singleLine' | 'multiLine' | 'number' | 'boolean' | 'date' };
type DataModel = { properties: DataModelProperty[]; itemIdPropertyName: string };
type DataConnectorCapabilities = {
  filtering: boolean;
  sorting: boolean;
  model: boolean;
  dataSourceVariable: boolean;
};

/** The catalog's answers. */
type Products = { items: DataItem[]; offset: number; total: number };
type Located = { item: DataItem; index: number; total: number };
type Schema = { fields: { name: string; kind: 'text' | 'longtext' | 'number' | 'flag' | 'date' }[] };

const modelTypes: Record<Schema['fields'][number]['kind'], DataModelProperty['type']> = {
  text: 'singleLine',
  longtext: 'multiLine',
  number: 'number',
  flag: 'boolean',
  date: 'date',
};

/**
 * A data connector that pages both ways (docs/writing-connectors.md): Studio loads pages of 50 with
 * `continuationToken`, goes back with `previousPageToken`, and opens one row by id with `getPageItemById`, whose
 * tokens are the pages after and before that row. A token is the offset of the page it loads, so it means the same
 * whichever call returned it. The platform injects the API key.
 */
export default class AcmeCatalogConnector {
  constructor(private readonly runtime: Connector.ConnectorRuntimeContext) {}

  async getPage(config: PageConfig): Promise<DataPage> {
    // A limit of 0 asks for no rows (callers send it to check the source answers).
    if (config.limit <= 0) return { data: [], continuationToken: null, previousPageToken: null };
    const token = config.previousPageToken ?? config.continuationToken;
    const offset = token ? this.offsetOf(token) : 0;
    const query = [`offset=${offset}`, `limit=${config.limit}`, ...this.sortParams(config.sorting)];
    const page = (await this.json(`/v1/products?${query.join('&')}`)) as Products;
    const end = page.offset + page.items.length;
    return {
      data: page.items,
      continuationToken: end < page.total ? String(end) : null,
      previousPageToken: page.offset > 0 ? String(Math.max(0, page.offset - config.limit)) : null,
    };
  }

  async getPageItemById(id: string, pageOptions: PageItemOptions): Promise<DataPageItem> {
    const limit = Math.max(1, pageOptions.limit);
    // The row's place depends on the order Studio shows the rows in.
    const query = this.sortParams(pageOptions.sorting);
    const path = `/v1/products/${encodeURIComponent(id)}${query.length > 0 ? `?${query.join('&')}` : ''}`;
    const found = (await this.json(path)) as Located;
    return {
      data: found.item,
      continuationToken: found.index + 1 < found.total ? String(found.index + 1) : null,
      previousPageToken: found.index > 0 ? String(Math.max(0, found.index - limit)) : null,
    };
  }

  async getModel(): Promise<DataModel> {
    const schema = (await this.json('/v1/schema')) as Schema;
    return {
      properties: schema.fields.map((field) => ({ name: field.name, type: modelTypes[field.kind] })),
      itemIdPropertyName: 'id',
    };
  }

  getConfigurationOptions(): Connector.ConnectorConfigValue[] | null {
    return [];
  }

  getCapabilities(): DataConnectorCapabilities {
    return { filtering: false, sorting: true, model: true, dataSourceVariable: true };
  }

  private offsetOf(token: string): number {
    const offset = Number(token);
    if (!Number.isInteger(offset) || offset < 0)
      throw new ConnectorHttpError(400, `not a page token: ${token}`);
    return offset;
  }

  /** The first sorting Studio sends, as `sort=name&order=desc`; none keeps the catalog's order. */
  private sortParams(sorting: Sorting[] | null | undefined): string[] {
    const first = sorting?.[0];
    return first ? [`sort=${encodeURIComponent(first.property)}`, `order=${first.direction}`] : [];
  }

  private base(): string {
    const base = this.runtime.options.baseUrl;
    if (typeof base !== 'string' || base === '') {
      throw new ConnectorHttpError(
        400,
        'the option baseUrl is not set; publish the connector with -ro baseUrl=<url>',
      );
    }
    return base.replace(/\/+$/, '');
  }

  private async json(path: string): Promise<unknown> {
    const response = await this.runtime.fetch(`${this.base()}${path}`, {
      method: 'GET',
      headers: { Accept: 'application/json' },
    });
    if (!response.ok) throw new ConnectorHttpError(response.status, `GET ${path}: ${response.statusText}`);
    return JSON.parse(response.text);
  }
}
