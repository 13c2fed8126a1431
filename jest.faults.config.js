// The fault suite's CI test, in a jest run of its own after every other test: it restarts
// Kafka, MongoDB and Redis mid-run, which would break integration tests running beside it.
import base from './jest.config.js';

const integration = base.projects.find((project) => project.displayName === 'integration');

export default {
  projects: [
    {
      ...integration,
      displayName: 'faults',
      testMatch: ['<rootDir>/services/faults/test/faults/**/*.test.ts'],
    },
  ],
};
