import { buildPrograms } from '../../../../tools/build-for-tests.ts';

/** The server, connector-cli and connector-proxy bins these tests start run their builds: make them from the sources. */
export default buildPrograms(
  new URL('../../', import.meta.url),
  new URL('../../../../packages/cli/', import.meta.url),
  new URL('../../../../packages/proxy/', import.meta.url),
);
