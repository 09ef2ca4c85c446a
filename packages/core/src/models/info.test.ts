import { describeModel, nonEmptyInvalid } from './describe-model.ts';
import { Info, InfoResponse } from './info.ts';

// See docs/admin-api.md.
describeModel('InfoResponse', InfoResponse, {
  example: { data: { serverVersion: '1.0.0' } },
  required: ['data'],
  invalid: [
    ['data', { serverVersion: '' }, 'empty serverVersion'],
    ['data', { serverVersion: '1.0.0', build: 1 }, 'extra property inside data'],
  ],
});

describeModel('Info', Info, {
  example: { serverVersion: '1.0.0' },
  required: ['serverVersion'],
  invalid: [...nonEmptyInvalid('serverVersion')],
});
