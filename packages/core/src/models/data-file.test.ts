import { describe, expect, it } from 'vitest';
import { listErrors } from '../validation.ts';
import { DataFile, dataFileErrors } from './data-file.ts';

const subscription = (extra: Record<string, unknown> = {}) => ({
  id: 1,
  guid: '6f1c2a9e-1b1e-4c3a-9a43-0c6d8c1f0a11',
  name: 'acme',
  clientId: '0b8e6c8a-52a1-4a4e-8f0e-3e1f0d4f5b22',
  subscriptionType: 'Saas',
  pricebookVersion: '2025.1',
  subscriptionTier: 'Enterprise',
  ...extra,
});

const errorsOf = (input: unknown) => {
  const result = DataFile.safeParse(input);
  if (result.success) throw new Error('expected the file to be refused');
  return dataFileErrors(result.error, input);
};

describe('the data file schema', () => {
  it('accepts yyyy-MM-dd dates and null, and refuses other forms and days that do not exist', () => {
    expect(
      DataFile.safeParse({ subscriptions: [subscription({ startDate: '2024-02-29', endDate: null })] })
        .success,
    ).toBe(true);
    expect(
      errorsOf({ subscriptions: [subscription({ startDate: '01/01/2025', endDate: '2025-02-29' })] }),
    ).toEqual({
      'subscriptions[0].startDate': ['must be a calendar date as yyyy-MM-dd'],
      'subscriptions[0].endDate': ['must be a calendar date as yyyy-MM-dd'],
    });
  });

  it('names the bad paths in the order of the file, whatever the schema checks first', () => {
    const errors = errorsOf({
      renderEvents: [{ environmentGuid: 'x', kind: 'Pdf', at: '2026-01-01T00:00:00Z' }],
      users: [{ id: 'u1', email: '' }],
      zzz: 1,
    });
    expect(Object.keys(errors)).toEqual(['renderEvents[0].environmentGuid', 'users[0].email', 'zzz']);
    // A required key left out is named after its siblings that are there.
    expect(Object.keys(errorsOf({ users: [{ email: 'a@b.c', bogus: 1 }] }))).toEqual([
      'users[0].bogus',
      'users[0].id',
    ]);
  });

  it('names an unknown key with the closest known key, at any depth', () => {
    const errors = errorsOf({
      user: [],
      subscriptions: [
        subscription({
          experienceExtensions: { isPartnerEnable: true },
          environments: [
            {
              id: 1,
              guid: '9a0f5a52-6c55-4d7e-bf5e-6a8e1d3c7b33',
              name: 'P',
              type: 'Production',
              storage: { asset: 1 },
            },
          ],
        }),
      ],
      renderEvents: [
        {
          environmentGuid: '9a0f5a52-6c55-4d7e-bf5e-6a8e1d3c7b33',
          kind: 'Pdf',
          at: '2026-11-01T10:00:00Z',
          watermark: true,
        },
      ],
    });
    expect(errors).toEqual({
      user: ['unknown key; did you mean users?'],
      'subscriptions[0].experienceExtensions.isPartnerEnable': [
        'unknown key; did you mean isPartnerEnabled?',
      ],
      'subscriptions[0].environments[0].storage.asset': ['unknown key; did you mean assets?'],
      'renderEvents[0].watermark': ['unknown key; did you mean watermarked?'],
    });
  });

  it('lists the known keys when no key is close', () => {
    expect(errorsOf({ colour: 'blue' })).toEqual({
      colour: ['unknown key (the file has users, subscriptions, renderEvents, auditEntries)'],
    });
  });

  it('lists every bad entry in a report, up to twenty, then how many more', () => {
    const users = Array.from({ length: 23 }, (_, i) => ({ id: `user-${i}`, email: '' }));
    const errors = errorsOf({ users });
    expect(Object.keys(errors)).toHaveLength(23);
    const report = listErrors(errors);
    expect(report.startsWith('users[0].email: ')).toBe(true);
    expect(report).toContain('users[19].email: ');
    expect(report).not.toContain('users[20].email');
    expect(report.endsWith('(and 3 more)')).toBe(true);
  });
});
