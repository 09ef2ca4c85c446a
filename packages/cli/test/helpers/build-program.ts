import { buildPrograms } from '../../../../tools/build-for-tests.ts';

/** The connector-cli bin these tests start runs its build: make it from the current sources. */
export default buildPrograms(new URL('../../', import.meta.url));
