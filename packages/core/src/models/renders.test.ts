import {
  dateTimeInvalid,
  describeModel,
  int64Invalid,
  int64Valid,
  nonEmptyInvalid,
} from './describe-model.ts';
import {
  EnvironmentRenderDetail,
  EnvironmentRenderInformation,
  EnvironmentRenderModel,
  SubscriptionRendersModel,
} from './renders.ts';

// See docs/admin-api.md.
describeModel('EnvironmentRenderModel', EnvironmentRenderModel, {
  example: {
    date: '2026-11-01T00:00:00Z',
    totalRenders: 7,
    totalWatermarkedRenders: 1,
    renderDetail: [
      { name: 'Pdf', renders: 5 },
      { name: 'Studio-Gif', renders: 2 },
    ],
  },
  required: ['date', 'totalRenders', 'totalWatermarkedRenders', 'renderDetail'],
  invalid: [
    ...dateTimeInvalid('date'),
    ...int64Invalid('totalRenders'),
    ...int64Invalid('totalWatermarkedRenders'),
    ['renderDetail', [{ name: '', renders: 1 }], 'a detail with an empty name'],
    ['renderDetail', { name: 'Pdf', renders: 1 }, 'an object, not an array'],
  ],
  valid: [
    ...int64Valid('totalRenders'),
    ['renderDetail', [], 'no render kinds'],
    ['date', '2026-11-01T00:00:00.000Z', 'fractional seconds'],
  ],
});

describeModel('EnvironmentRenderDetail', EnvironmentRenderDetail, {
  example: { name: 'Pdf', renders: 5 },
  required: ['name', 'renders'],
  invalid: [...nonEmptyInvalid('name'), ...int64Invalid('renders')],
});

// See docs/admin-api.md.
describeModel('SubscriptionRendersModel', SubscriptionRendersModel, {
  example: {
    date: '2026-11-01T00:00:00Z',
    totalRenders: 7,
    totalWatermarkedRenders: 1,
    environments: [
      { name: 'Acme Production', renders: 5, watermarkedRenders: 0 },
      { name: 'Others', renders: 2, watermarkedRenders: 1 },
    ],
  },
  required: ['date', 'totalRenders', 'totalWatermarkedRenders', 'environments'],
  invalid: [
    ...dateTimeInvalid('date'),
    ...int64Invalid('totalRenders'),
    ...int64Invalid('totalWatermarkedRenders'),
    ['environments', [{ name: 'x', renders: 1 }], 'an element without watermarkedRenders'],
  ],
  valid: [['environments', [], 'no environments']],
});

describeModel('EnvironmentRenderInformation', EnvironmentRenderInformation, {
  example: { name: 'Acme Production', renders: 5, watermarkedRenders: 0 },
  required: ['renders', 'watermarkedRenders'],
  nullable: ['name'],
  invalid: [...int64Invalid('renders'), ...int64Invalid('watermarkedRenders')],
  valid: [['name', '', 'name has no minimum length']],
});
