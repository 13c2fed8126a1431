// Tests that must run alone, in a jest run of their own (in band) after every other test: the
// fault suite restarts Kafka, MongoDB and Redis mid-run, which would break integration tests
// running beside it; the cluster tests start three brokers and a stack of their own; the volume tests load the local database with hundreds of thousands of
// buckets and kill it mid-write; the first-run check builds and starts a whole second stack from a fresh
// clone, which would starve them of the machine's two cores.
import base from './jest.config.js';

const integration = base.projects.find((project) => project.displayName === 'integration');

export default {
  projects: [
    {
      ...integration,
      displayName: 'faults',
      testMatch: ['<rootDir>/tools/faults/test/faults/**/*.test.ts'],
    },
    {
      ...integration,
      displayName: 'cluster',
      testMatch: [
        '<rootDir>/infra/test/cluster/**/*.test.ts',
        '<rootDir>/tools/faults/test/cluster/**/*.test.ts',
      ],
    },
    {
      ...integration,
      displayName: 'volume',
      testMatch: ['<rootDir>/{packages,services,tools}/*/test/volume/**/*.test.ts'],
    },
    {
      ...integration,
      displayName: 'first-run',
      testMatch: ['<rootDir>/services/cli/test/first-run/**/*.test.ts'],
    },
  ],
};
