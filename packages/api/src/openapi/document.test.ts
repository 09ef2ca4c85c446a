import { describe, expect, it } from 'vitest';
import { withServers } from './document.ts';

describe('withServers', () => {
  const urls = (publicUrl: string, host: string | undefined) =>
    (withServers({}, publicUrl, { host, protocol: 'http' }).servers as { url: string }[]).map((s) => s.url);

  it('lists the public URL with its path, after the address the document was read from when that differs', () => {
    expect(urls('https://platform.example.com/base', '10.0.0.5:8080')).toEqual([
      'http://10.0.0.5:8080',
      'https://platform.example.com/base',
    ]);
    expect(urls('https://platform.example.com/base/', 'platform.example.com')).toEqual([
      'https://platform.example.com/base',
    ]);
    expect(urls('http://127.0.0.1:8080', '127.0.0.1:8080')).toEqual(['http://127.0.0.1:8080']);
  });
});
