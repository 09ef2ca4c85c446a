/**
 * Uploaded files count against the session's memory (docs/connector-runtime.md, "Limits"): the bytes of the files
 * handed to `upload` are held on the host for the call, within RUNTIME_MEMORY_MB, and given back when it ends.
 */
import { importDataFile } from '@platform/store';
import { testBackends } from '@platform/store/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectorBody, connectorsPath, expectStatus, platformClient } from '../proxy-e2e/support.ts';
import { fixture, USERS } from '../support/fixture.ts';
import { type Listening, listen, readBody } from '../support/loopback-servers.ts';
import { startTestPlatform, type TestPlatform } from '../support/platform.ts';

const owner = { user: USERS.owner };
const server = { user: USERS.contentUser, roles: ['platform:read', 'connector:server'] };
const MiB = 1024 * 1024;
/** The session's memory in this server: 16 MiB for the interpreter, and apart from it 16 MiB on the host. */
const MEMORY_MB = 16;

/** A DAM that takes each file as the body of its own POST. */
const uploadingConnector = `
export default class Uploading {
  constructor(runtime) { this.runtime = runtime; }
  async query(options, context) { return { pageSize: options.pageSize, data: [], links: { nextPage: '' } }; }
  async detail(id, context) { return { id, name: id, relativePath: '/', type: 0, metaData: {} }; }
  async download(id, previewType, intent, context) { throw new ConnectorHttpError(404, 'none'); }
  async upload(files, context) {
    const media = [];
    for (const file of files) {
      const response = await this.runtime.fetch(this.runtime.options.base + '/media', { method: 'POST', body: file });
      if (!response.ok) throw new ConnectorHttpError(response.status, 'upload failed: ' + response.status);
      media.push({ id: JSON.parse(response.text).id, name: file.name, relativePath: '/', type: 0, metaData: {} });
    }
    return media;
  }
  getConfigurationOptions() { return null; }
  getCapabilities() { return { query: true, detail: true, filtering: false, upload: true }; }
}`;

describe.each(await testBackends())('uploaded files within the session memory on $name', (backend) => {
  let tp: TestPlatform;
  let dam: Listening & { received: number[] };
  let id: string;
  const { rest, tokenOf } = platformClient(() => tp);

  const upload = async (bytes: number) => {
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(bytes).fill(7)], { type: 'image/png' }), 'picture.png');
    const response = await tp.call(`${connectorsPath}/${id}/media/upload`, {
      method: 'POST',
      token: await tokenOf(server),
      body: form,
    });
    const text = await response.text();
    return { status: response.status, text, body: JSON.parse(text) as Record<string, unknown> };
  };

  beforeAll(async () => {
    tp = await startTestPlatform(backend, { RUNTIME_MEMORY_MB: String(MEMORY_MB) });
    await importDataFile(tp.database, fixture(new Date()));
    const received: number[] = [];
    const listening = await listen(async (req, res) => {
      received.push((await readBody(req)).byteLength);
      res.writeHead(201, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ id: `media-${received.length}` }));
    });
    dam = { ...listening, received };
    const reply = await rest<{ id: string }>('POST', connectorsPath, {
      ...owner,
      body: connectorBody({ script: uploadingConnector, type: 'media', options: { base: dam.url } }),
    });
    expectStatus(reply, 201);
    id = reply.body.id;
  });
  afterAll(async () => {
    await tp?.close();
    await dam?.close();
  });

  it('an upload larger than the session memory is refused with 502 MEMORY_LIMIT before it reaches the API', async () => {
    const refused = await upload(20 * MiB);
    expect(refused.status, refused.text).toBe(502);
    expect(refused.body).toMatchObject({ code: 'MEMORY_LIMIT', limit: 'memory' });
    expect(dam.received).toEqual([]);
  });

  it("gives an upload's bytes back when its call ends: two of 10 MiB one after the other both fit 16 MiB", async () => {
    for (let i = 0; i < 2; i++) {
      const stored = await upload(10 * MiB);
      expect(stored.status, stored.text).toBe(200);
    }
    expect(dam.received.slice(-2)).toEqual([10 * MiB, 10 * MiB]);
  });
});
