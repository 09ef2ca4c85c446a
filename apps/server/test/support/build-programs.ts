import { buildPrograms } from '../../../../tools/build-for-tests.ts';

/** The server and connector-cli bins these tests start run their builds: make them from the current sources. */
export default buildPrograms(
  new URL('../../', import.meta.url),
  new URL('../../../../packages/cli/', import.meta.url),
);
