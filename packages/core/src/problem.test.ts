import { describe, expect, it } from 'vitest';
import { describeModel } from './models/describe-model.ts';
import { ProblemDetails, problem, statusTitle, statusType } from './problem.ts';

// See docs/errors.md: the specification's five fields optional and nullable, additional properties allowed; the
// platform's own traceId and errors declared (optional, never null).
describeModel('ProblemDetails', ProblemDetails, {
  example: {
    type: 'https://tools.ietf.org/html/rfc9110#section-15.5.1',
    title: 'Bad Request',
    status: 400,
    detail: 'groupBy is required.',
    instance: '/api/v1/environments/x/renders',
    traceId: '4bf92f3577b34da6a3ce929d0e0e4736',
    errors: { groupBy: ['groupBy is required: year or month.'] },
  },
  required: [],
  nullable: ['type', 'title', 'status', 'detail', 'instance'],
  allowsExtra: true,
  invalid: [
    ['status', 2 ** 31, 'int32 overflow'],
    ['status', '400', 'a string'],
    ['title', 1, 'a number'],
    ['errors', { groupBy: 'required' }, 'messages not in a list'],
  ],
  valid: [['errors', {}, 'no field named']],
});

describe('problem', () => {
  it('builds the body docs/errors.md describes', () => {
    expect(problem({ status: 404, detail: 'No such subscription.', traceId: 't' })).toEqual({
      type: 'https://tools.ietf.org/html/rfc9110#section-15.5.5',
      title: 'Not Found',
      status: 404,
      detail: 'No such subscription.',
      traceId: 't',
    });
  });

  it('adds errors and instance only when given', () => {
    const body = problem({ status: 400, detail: 'Bad.', traceId: 't', errors: { groupBy: ['required'] } });
    expect(body.errors).toEqual({ groupBy: ['required'] });
    expect('instance' in body).toBe(false);
    expect(ProblemDetails.safeParse(body).success).toBe(true);
  });

  it('names 429 and 431 by RFC 6585, the rest that the server answers by RFC 9110, unknown statuses generically', () => {
    expect(statusType(429)).toBe('https://tools.ietf.org/html/rfc6585#section-4');
    expect(statusType(431)).toBe('https://tools.ietf.org/html/rfc6585#section-5');
    expect(statusType(408)).toBe('https://tools.ietf.org/html/rfc9110#section-15.5.9');
    expect(statusTitle(408)).toBe('Request Timeout');
    expect(statusType(418)).toBe('about:blank');
    expect(statusTitle(418)).toBe('Error');
  });
});
