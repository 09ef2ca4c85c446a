import {
  describeModel,
  int32Invalid,
  int64Invalid,
  int64Valid,
  nonEmptyInvalid,
  uriInvalid,
  uuidInvalid,
} from './describe-model.ts';
import {
  BasicEnvironmentModel,
  EnvironmentModel,
  EnvironmentStorageInformationModel,
} from './environment.ts';

const guid = '0b7e4f6c-7b1a-4c8e-9f2d-3a5b6c7d8e9f';
const storage = { assets: 1, documents: 2, fonts: 3, cache: 4, backup: 5, other: 6 };

// See docs/admin-api.md.
describeModel('BasicEnvironmentModel', BasicEnvironmentModel, {
  example: {
    id: 1,
    guid,
    name: 'Acme Production',
    region: 'eu-west-1',
    type: 'Production',
    usedStorage: 21,
    backOfficeUri: 'https://acme-prod.example/backoffice',
    technicalName: 'acme-prod',
  },
  required: ['id', 'guid', 'name', 'type', 'usedStorage'],
  nullable: ['region', 'backOfficeUri', 'technicalName'],
  invalid: [
    ...int32Invalid('id'),
    ...uuidInvalid('guid'),
    ...nonEmptyInvalid('name'),
    ['type', 'Staging', 'not an EnvironmentType'],
    ...int64Invalid('usedStorage'),
    ...uriInvalid('backOfficeUri'),
  ],
  valid: [...int64Valid('usedStorage'), ['type', 'Development', 'another EnvironmentType']],
});

// See docs/admin-api.md.
describeModel('EnvironmentModel', EnvironmentModel, {
  example: {
    id: 1,
    guid,
    backOfficeUri: 'https://acme-prod.example/backoffice',
    subscriptionId: '1c8f5a7d-8c2b-4d9f-a03e-4b6c7d8e9fa0',
    name: 'Acme Production',
    defaultName: 'Production',
    type: 'Sandbox',
    usedStorage: 21,
    usedStorageDetail: storage,
    tenantName: 'acme',
    region: 'eu-west-1',
    renders: 10,
    watermarkedRenders: 2,
    isPlatformPricebook: true,
    disableCpoToPlatformRedirect: false,
  },
  required: [
    'id',
    'guid',
    'subscriptionId',
    'name',
    'type',
    'usedStorage',
    'usedStorageDetail',
    'renders',
    'watermarkedRenders',
    'isPlatformPricebook',
    'disableCpoToPlatformRedirect',
  ],
  nullable: ['backOfficeUri', 'defaultName', 'tenantName', 'region'],
  invalid: [
    ...int32Invalid('id'),
    ...uuidInvalid('guid'),
    ...uuidInvalid('subscriptionId'),
    ...uriInvalid('backOfficeUri'),
    ...nonEmptyInvalid('name'),
    ...int64Invalid('usedStorage'),
    ...int64Invalid('renders'),
    ...int64Invalid('watermarkedRenders'),
    ['usedStorageDetail', { ...storage, other: undefined }, 'a storage part missing'],
    ['usedStorageDetail', { ...storage, logs: 1 }, 'an extra storage part'],
    ['isPlatformPricebook', 'true', 'a string, not a boolean'],
    ['disableCpoToPlatformRedirect', 0, 'a number, not a boolean'],
  ],
  valid: [...int64Valid('renders')],
});

// See docs/admin-api.md.
describeModel('EnvironmentStorageInformationModel', EnvironmentStorageInformationModel, {
  example: storage,
  required: ['assets', 'documents', 'fonts', 'cache', 'backup', 'other'],
  invalid: Object.keys(storage).flatMap((field) => int64Invalid(field)),
  valid: Object.keys(storage).flatMap((field) => int64Valid(field)),
});
