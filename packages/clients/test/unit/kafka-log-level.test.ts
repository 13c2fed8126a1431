import { describe, expect, it } from '@jest/globals';
import { KafkaJSProtocolError, logLevel } from 'kafkajs';
import {
  isTransientKafkaError,
  KAFKAJS_PROTOCOL_ERRORS,
  kafkaLineLevel,
  protocolErrorOf,
  TRANSIENT_KAFKA_ERRORS,
  type KafkaLine,
} from '../../src/kafka-log-level.js';

const LOADING = "The coordinator is loading and hence can't process requests for this group";
const NO_LEADER =
  'There is no leader for this topic-partition as we are in the middle of a leadership election';
const broker = { broker: '127.0.0.1:19092', clientId: 'tickertape-publish' };

function line(
  namespace: string,
  level: logLevel,
  message: string,
  fields: Record<string, unknown> = {},
): KafkaLine {
  return { namespace, level, message, fields };
}

// Each line as KafkaJS 2.2 writes it (namespace, level, text and fields of its call site).
describe('kafkaLineLevel', () => {
  it.each<[string, KafkaLine]>([
    [
      'the transaction coordinator loading, answering InitProducerId',
      line('Connection', logLevel.ERROR, 'Response InitProducerId(key: 22, version: 1)', {
        ...broker,
        error: LOADING,
        correlationId: 2,
        size: 20,
      }),
    ],
    [
      'no group coordinator yet',
      line('Connection', logLevel.ERROR, 'Response GroupCoordinator(key: 10, version: 2)', {
        ...broker,
        error: 'The group coordinator is not available',
        correlationId: 2,
        size: 55,
      }),
    ],
    [
      'a coordinator that moved',
      line('Connection', logLevel.ERROR, 'Response JoinGroup(key: 11, version: 5)', {
        ...broker,
        error: 'This is not the correct coordinator for this group',
        correlationId: 7,
        size: 30,
      }),
    ],
    [
      'a leader election during a send',
      line('Producer', logLevel.ERROR, `Failed to send messages: ${NO_LEADER}`, {
        retryCount: 0,
        retryTime: 312,
      }),
    ],
    [
      'a leader that moved during a send',
      line(
        'Producer',
        logLevel.ERROR,
        'Failed to send messages: This server is not the leader for that topic-partition',
        { retryCount: 1, retryTime: 620 },
      ),
    ],
    [
      'a consumer crash on a loading coordinator',
      line('Consumer', logLevel.ERROR, `Crash: KafkaJSProtocolError: ${LOADING}`, {
        groupId: 'tickertape-rollup-minute',
        stack: `KafkaJSProtocolError: ${LOADING}\n    at createErrorFromCode (…)`,
      }),
    ],
    [
      'the restart after a crash',
      line('Consumer', logLevel.ERROR, 'Restarting the consumer in 300ms', {
        retryTime: 300,
        groupId: 'tickertape-rollup-minute',
      }),
    ],
    [
      'a rebalance',
      line('Runner', logLevel.WARN, 'The group is rebalancing, re-joining', {
        groupId: 'g',
        memberId: 'm',
        error: 'The group is rebalancing, so a rejoin is needed',
      }),
    ],
    [
      'a refused connection',
      line('Connection', logLevel.ERROR, 'Connection error: connect ECONNREFUSED 127.0.0.1:19099', {
        ...broker,
        stack: 'Error: connect ECONNREFUSED 127.0.0.1:19099',
      }),
    ],
    ['a connection timeout', line('Connection', logLevel.ERROR, 'Connection timeout', broker)],
    [
      'the next seed broker tried',
      line(
        'BrokerPool',
        logLevel.ERROR,
        'Failed to connect to seed broker, trying another broker from the list: Connection error: connect ECONNREFUSED 127.0.0.1:19099',
        { retryCount: 0, retryTime: 347 },
      ),
    ],
  ])('logs %s at debug', (_label, entry) => {
    expect(kafkaLineLevel(entry)).toBe('debug');
  });

  it.each<[string, KafkaLine, string]>([
    [
      'refused SASL credentials',
      line(
        'SASLPlainAuthenticator',
        logLevel.ERROR,
        'SASL PLAIN authentication failed: Authentication failed during authentication due to invalid credentials with SASL mechanism PLAIN',
        broker,
      ),
      'error',
    ],
    [
      'a refused SASL handshake response',
      line('Connection', logLevel.ERROR, 'Response SaslAuthenticate(key: 36, version: 1)', {
        ...broker,
        error: 'SASL Authentication failed',
        correlationId: 3,
        size: 90,
      }),
      'error',
    ],
    [
      'a topic the credentials may not write',
      line('Connection', logLevel.ERROR, 'Response Produce(key: 0, version: 7)', {
        ...broker,
        error: 'Not authorized to access topics: [Topic authorization failed]',
        correlationId: 9,
        size: 60,
      }),
      'error',
    ],
    [
      'an oversized message',
      line(
        'Producer',
        logLevel.ERROR,
        'The request included a message larger than the max message size the server will accept',
        { retryCount: 0, retryTime: 300 },
      ),
      'error',
    ],
    [
      'a crash after the retries ran out on a loading coordinator',
      line('Consumer', logLevel.ERROR, `Crash: KafkaJSNumberOfRetriesExceeded: ${LOADING}`, {
        groupId: 'g',
        retryCount: 5,
      }),
      'error',
    ],
    [
      'a crash on an unretriable error',
      line('Consumer', logLevel.ERROR, 'Crash: KafkaJSNonRetriableError: boom', { groupId: 'g' }),
      'error',
    ],
    [
      'a handler that threw',
      line('Runner', logLevel.ERROR, 'Error when calling eachMessage', {
        topic: 't',
        partition: 0,
        error: 'boom',
      }),
      'error',
    ],
    [
      'offsets lost to retention',
      line('ConsumerGroup', logLevel.ERROR, 'Offset out of range, resetting to default offset', {
        topic: 't',
        partition: 0,
      }),
      'error',
    ],
    [
      'a member the coordinator forgot (a session that timed out)',
      line(
        'Runner',
        logLevel.ERROR,
        'The coordinator is not aware of this member, re-joining the group',
        { groupId: 'g', memberId: 'm', error: 'The coordinator is not aware of this member' },
      ),
      'error',
    ],
    [
      'a topic that exists already',
      line('Admin', logLevel.WARN, 'Could not create topics', {
        error: 'Topic with this name already exists',
        retryCount: 0,
        retryTime: 300,
      }),
      'warn',
    ],
    ['an info line', line('Consumer', logLevel.INFO, 'Starting', { groupId: 'g' }), 'info'],
  ])('keeps %s at its level', (_label, entry, level) => {
    expect(kafkaLineLevel(entry)).toBe(level);
  });
});

describe("KafkaJS's error table", () => {
  it("finds a line's error where KafkaJS put its message", () => {
    const crash = line('Consumer', logLevel.ERROR, `Crash: KafkaJSProtocolError: ${LOADING}`);
    expect(protocolErrorOf(crash)).toMatchObject({ type: 'GROUP_LOAD_IN_PROGRESS', code: 14 });
    const send = line('Producer', logLevel.ERROR, `Failed to send messages: ${NO_LEADER}`);
    expect(protocolErrorOf(send)).toMatchObject({ type: 'LEADER_NOT_AVAILABLE', code: 5 });
    const response = line('Connection', logLevel.ERROR, 'Response', { error: LOADING });
    expect(protocolErrorOf(response)).toMatchObject({ type: 'GROUP_LOAD_IN_PROGRESS' });
    expect(protocolErrorOf(line('Runner', logLevel.ERROR, 'x', { error: 'boom' }))).toBeUndefined();
  });

  it('holds every transient type', () => {
    const types = KAFKAJS_PROTOCOL_ERRORS.map((entry) => entry.type);
    expect(types).toEqual(expect.arrayContaining([...TRANSIENT_KAFKA_ERRORS]));
  });
});

describe('isTransientKafkaError', () => {
  it.each<[string, unknown, boolean]>([
    ['a loading coordinator', protocolError('GROUP_LOAD_IN_PROGRESS'), true],
    ['a leader election', protocolError('LEADER_NOT_AVAILABLE'), true],
    ['a rebalance', protocolError('REBALANCE_IN_PROGRESS'), true],
    ['refused credentials', protocolError('SASL_AUTHENTICATION_FAILED'), false],
    ['a retriable error that needs a look', protocolError('KAFKA_STORAGE_ERROR'), false],
    ['a plain error', new Error(LOADING), false],
    ['not an error', 'GROUP_LOAD_IN_PROGRESS', false],
  ])('%s', (_label, err, transient) => {
    expect(isTransientKafkaError(err)).toBe(transient);
  });
});

/** A protocol error as KafkaJS builds one from a response's error code. */
function protocolError(type: string): KafkaJSProtocolError {
  const entry = KAFKAJS_PROTOCOL_ERRORS.find((candidate) => candidate.type === type);
  // KafkaJS's constructor reads type, code and retriable off the table entry it is given.
  return new KafkaJSProtocolError(entry as unknown as Error);
}
