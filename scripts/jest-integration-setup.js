// Integration tests need the four addresses; fail once, clearly, instead of in every test.
const names = ['KAFKA_BROKERS', 'SCHEMA_REGISTRY_URL', 'MONGODB_URI', 'REDIS_URL'];

export default function integrationSetup() {
  const missing = names.filter((name) => !process.env[name]);
  if (missing.length > 0) {
    throw new Error(
      `integration tests need ${missing.join(', ')}; start the stack and run them through it: ` +
        '`bash infra/local/stack.sh up && bash infra/local/stack.sh exec -- pnpm exec jest --selectProjects integration`',
    );
  }
}
