// One jest run for the whole repo, two projects: `unit` needs no service, `integration` talks to
// the real stack (infra/local/stack.sh). Packages resolve each other through the `source` export
// condition, so tests run against src/ without a build.
const swc = [
  '@swc/jest',
  {
    jsc: { parser: { syntax: 'typescript' }, target: 'es2022', keepClassNames: true },
    module: { type: 'es6' },
    sourceMaps: 'inline',
  },
];

const common = {
  extensionsToTreatAsEsm: ['.ts'],
  transform: { '^.+\\.ts$': swc },
  moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1' },
  testEnvironment: 'node',
  testEnvironmentOptions: { customExportConditions: ['source', 'node', 'node-addons'] },
  modulePathIgnorePatterns: ['<rootDir>/.stack/', '/dist/'],
};

const where = '<rootDir>/{packages,services,tools}/*';

export default {
  projects: [
    {
      ...common,
      displayName: 'unit',
      testMatch: [
        `${where}/test/unit/**/*.test.ts`,
        `${where}/src/**/*.test.ts`,
        '<rootDir>/infra/test/unit/**/*.test.ts',
      ],
    },
    {
      ...common,
      displayName: 'integration',
      // Browser tests drive Debian's chromium against a real API on the real stack.
      testMatch: [
        `${where}/test/integration/**/*.test.ts`,
        `${where}/test/browser/**/*.test.ts`,
        '<rootDir>/infra/test/integration/**/*.test.ts',
      ],
      globalSetup: '<rootDir>/scripts/jest-integration-setup.js',
      slowTestThreshold: 30,
    },
  ],
};
