import express, { type Request, type RequestHandler, type Response, Router } from 'express';
import { renderAsset, standInAssets, standInProducts, standInSchema } from './catalogue.ts';
import { type StandInCredentials, sameText } from './credentials.ts';

const TOKEN_LIFETIME_SECONDS = 3600;

const nowSeconds = () => Math.floor(Date.now() / 1000);

/** A whole number in [min, max] from a query parameter, else the fallback. */
const intParam = (value: unknown, fallback: number, min: number, max: number): number => {
  const n = typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : fallback;
  return Math.min(max, Math.max(min, n));
};

const oauthError = (res: Response, status: number, error: string, description: string) =>
  res.status(status).json({ error, error_description: description });

/** Client id and secret from HTTP basic (client_secret_basic) or the form (client_secret_post). */
const clientOf = (req: Request): { id: string; secret: string } | undefined => {
  const basic = /^Basic (.+)$/i.exec(req.headers.authorization ?? '');
  if (basic) {
    const [id, ...rest] = Buffer.from(basic[1]!, 'base64').toString().split(':');
    return { id: decodeURIComponent(id ?? ''), secret: decodeURIComponent(rest.join(':')) };
  }
  const body = (req.body ?? {}) as Record<string, unknown>;
  if (typeof body.client_id === 'string' && typeof body.client_secret === 'string')
    return { id: body.client_id, secret: body.client_secret };
  return undefined;
};

/**
 * The stand-in API a development server serves under `/dev/stand-in` (docs/demo-connectors.md):
 * an OAuth token endpoint (client credentials), a media library (JSON query and detail, PNG and SVG pictures made in
 * code) behind its bearer tokens, and a product catalogue (cursor pages, a schema) behind a static key. It exists so
 * the demo connectors work on a machine without internet; a production server never mounts it.
 */
export const standInApi = (credentials: StandInCredentials): Router => {
  const router = Router();

  router.post('/oauth/token', express.urlencoded({ extended: false, limit: '8kb' }), (req, res) => {
    const grant = (req.body as Record<string, unknown> | undefined)?.grant_type;
    if (grant !== 'client_credentials')
      return oauthError(res, 400, 'unsupported_grant_type', 'only client_credentials is supported');
    const client = clientOf(req);
    if (
      !client ||
      !sameText(client.id, credentials.clientId) ||
      !credentials.takesClientSecret(client.secret)
    )
      return oauthError(res, 401, 'invalid_client', 'unknown client or wrong secret');
    res.set('Cache-Control', 'no-store').json({
      access_token: credentials.issueToken(nowSeconds(), TOKEN_LIFETIME_SECONDS),
      token_type: 'Bearer',
      expires_in: TOKEN_LIFETIME_SECONDS,
    });
  });

  const bearer: RequestHandler = (req, res, next) => {
    const token = /^Bearer (.+)$/i.exec(req.headers.authorization ?? '')?.[1];
    if (token && credentials.verifyToken(token, nowSeconds())) return next();
    res
      .set('WWW-Authenticate', 'Bearer error="invalid_token"')
      .status(401)
      .json({ message: 'a valid bearer token is required' });
  };
  const apiKey: RequestHandler = (req, res, next) => {
    const key = req.get(credentials.apiKeyHeader);
    if (key && credentials.takesApiKey(key)) return next();
    res.status(401).json({ message: `the ${credentials.apiKeyHeader} header is missing or wrong` });
  };

  router.get('/media/assets', bearer, (req, res) => {
    const search = typeof req.query.search === 'string' ? req.query.search.toLowerCase() : '';
    // An asset's own id first: Studio looks an asset up by id with a search (query({filter: [id], pageSize: 1})).
    const found = [
      ...standInAssets.filter((a) => a.id.toLowerCase() === search),
      ...standInAssets.filter((a) => a.id.toLowerCase() !== search && a.name.toLowerCase().includes(search)),
    ];
    const pageSize = intParam(req.query.pageSize, 20, 1, 100);
    const page = intParam(req.query.page, 1, 1, 10_000);
    const items = found.slice((page - 1) * pageSize, page * pageSize);
    res.json({ page, pageSize, total: found.length, items });
  });
  router.get('/media/assets/:id', bearer, (req, res) => {
    const asset = standInAssets.find((a) => a.id === req.params.id);
    if (!asset) return res.status(404).json({ message: `no asset ${req.params.id}` });
    res.json(asset);
  });
  router.get('/media/assets/:id/file', bearer, (req, res) => {
    const asset = standInAssets.find((a) => a.id === req.params.id);
    if (!asset) return res.status(404).json({ message: `no asset ${req.params.id}` });
    const { contentType, body } = renderAsset(
      asset,
      req.query.size === 'thumbnail' ? 'thumbnail' : 'original',
    );
    res.set('Content-Type', contentType).set('Cache-Control', 'private, max-age=300').send(body);
  });

  router.get('/data/products', apiKey, (req, res) => {
    const limit = intParam(req.query.limit, 10, 1, 100);
    const cursor = typeof req.query.cursor === 'string' ? req.query.cursor : undefined;
    const start = cursor === undefined ? 0 : standInProducts.findIndex((p) => p.sku === cursor) + 1;
    if (start === 0 && cursor !== undefined)
      return res.status(400).json({ message: `unknown cursor ${cursor}` });
    const rows = standInProducts.slice(start, start + limit);
    const last = rows.at(-1);
    const more = start + limit < standInProducts.length;
    res.json({ rows, nextCursor: more && last ? last.sku : null });
  });
  router.get('/data/schema', apiKey, (_req, res) => {
    res.json(standInSchema);
  });

  router.use((_req, res) => {
    res.status(404).json({ message: 'no such stand-in endpoint' });
  });
  return router;
};
