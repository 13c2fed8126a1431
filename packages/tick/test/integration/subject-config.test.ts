/**
 * setSubjectCompatibility against the real registry when several processes set a new subject's
 * level at once, as every worker of a fresh deployment does at start: each of them succeeds.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { TestStack } from '@tickertape/testing';
import { setSubjectCompatibility } from '../../src/index.js';

const WRITERS = 8;
const ROUNDS = 10;

describe('setSubjectCompatibility', () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await TestStack.open('subject-config');
  });
  afterAll(() => stack.close());

  it('succeeds for every writer when several set a new subject at the same moment', async () => {
    const endpoint = { url: stack.env.SCHEMA_REGISTRY_URL };
    for (let round = 0; round < ROUNDS; round++) {
      const subject = stack.subject();
      const outcomes = await Promise.allSettled(
        Array.from({ length: WRITERS }, () =>
          setSubjectCompatibility(endpoint, subject, 'BACKWARD'),
        ),
      );
      expect(outcomes.filter((outcome) => outcome.status === 'rejected')).toEqual([]);
      const response = await fetch(`${endpoint.url}/config/${encodeURIComponent(subject)}`);
      expect(await response.json()).toMatchObject({ compatibilityLevel: 'BACKWARD' });
    }
  });
});
