import { logLevel } from 'kafkajs';
import { createRequire } from 'node:module';

export type KafkaLineLevel = 'error' | 'warn' | 'info' | 'debug';

/** One line as KafkaJS hands it to a log creator, its message apart from its other fields. */
export interface KafkaLine {
  namespace: string;
  level: logLevel;
  message: string;
  fields: Readonly<Record<string, unknown>>;
}

export interface ProtocolErrorEntry {
  type: string;
  code: number;
  retriable: boolean;
  message: string;
}

/**
 * KafkaJS's own table of Kafka error codes. Its log lines carry an error's message, never its
 * code (`{ error: e.message }`), so this table is the only way from a line back to the code. It
 * is not part of KafkaJS's typed API: the version is pinned in the catalog, and the unit test
 * fails if the table moves.
 */
export const { errorCodes: KAFKAJS_PROTOCOL_ERRORS } = createRequire(import.meta.url)(
  'kafkajs/src/protocol/error.js',
) as { errorCodes: readonly ProtocolErrorEntry[] };
const BY_MESSAGE = new Map(KAFKAJS_PROTOCOL_ERRORS.map((entry) => [entry.message, entry]));

/**
 * A cluster in motion, which KafkaJS rides out by retrying or re-joining: a group coordinator
 * loading or moving, a partition leader being elected, a group rebalancing. Nothing to act on
 * unless it lasts, and then retries run out and that failure keeps its level. KafkaJS 2.2
 * spells some by Kafka's older names (now COORDINATOR_LOAD_IN_PROGRESS,
 * COORDINATOR_NOT_AVAILABLE, NOT_COORDINATOR, NOT_LEADER_OR_FOLLOWER).
 */
export const TRANSIENT_KAFKA_ERRORS: ReadonlySet<string> = new Set([
  'GROUP_LOAD_IN_PROGRESS',
  'GROUP_COORDINATOR_NOT_AVAILABLE',
  'NOT_COORDINATOR_FOR_GROUP',
  'LEADER_NOT_AVAILABLE',
  'NOT_LEADER_FOR_PARTITION',
  'FENCED_LEADER_EPOCH',
  'UNKNOWN_LEADER_EPOCH',
  'REBALANCE_IN_PROGRESS',
  // What a member hears when the group has moved to a new generation; KafkaJS re-joins.
  'ILLEGAL_GENERATION',
]);

/** Whether `err` is a KafkaJS protocol error for one of the transient conditions. */
export function isTransientKafkaError(err: unknown): boolean {
  if (typeof err !== 'object' || err === null) return false;
  const { name, type } = err as { name?: unknown; type?: unknown };
  return (
    name === 'KafkaJSProtocolError' && typeof type === 'string' && TRANSIENT_KAFKA_ERRORS.has(type)
  );
}

/**
 * Lines in which KafkaJS says it is retrying after a failure that an earlier line reported
 * (the failed connection, the crash). They have no error code of their own, so KafkaJS's fixed
 * wording, within its namespace, is what tells them apart.
 */
const RETRY_NOTICES: readonly { namespace: string; opening: string }[] = [
  {
    namespace: 'BrokerPool',
    opening: 'Failed to connect to seed broker, trying another broker from the list',
  },
  { namespace: 'Consumer', opening: 'Restarting the consumer in ' },
];

/**
 * The prefixes KafkaJS puts before an error's message in a line's text. A consumer crash counts
 * only when the error itself is a protocol error: `Crash: KafkaJSNumberOfRetriesExceeded: …`
 * carries the same message, but means the condition did not pass.
 */
const MESSAGE_PREFIXES = ['Failed to send messages: ', 'Crash: KafkaJSProtocolError: '];

/** The Kafka error a line is about, looked up by where KafkaJS puts the error's message. */
export function protocolErrorOf(line: KafkaLine): ProtocolErrorEntry | undefined {
  const { error } = line.fields;
  if (typeof error === 'string') return BY_MESSAGE.get(error);
  const prefix = MESSAGE_PREFIXES.find((candidate) => line.message.startsWith(candidate));
  return BY_MESSAGE.get(prefix === undefined ? line.message : line.message.slice(prefix.length));
}

/**
 * A socket that failed to open or timed out: a `Connection` line that is not about a response
 * (those carry the request's correlationId). The pool retries it on the next broker; when every
 * attempt fails, the caller's own error says so (a service's start names KAFKA_BROKERS).
 */
function isSocketFailure(line: KafkaLine): boolean {
  return line.namespace === 'Connection' && line.fields.correlationId === undefined;
}

const PINO_LEVEL: Partial<Record<logLevel, KafkaLineLevel>> = {
  [logLevel.ERROR]: 'error',
  [logLevel.WARN]: 'warn',
  [logLevel.INFO]: 'info',
  [logLevel.DEBUG]: 'debug',
};

/**
 * The level a KafkaJS line is logged at: debug for what resolves itself (a transient Kafka
 * error, a connection retried, a consumer restarting), KafkaJS's own level for the rest, so
 * refused credentials, unretriable errors and crashes stay errors.
 */
export function kafkaLineLevel(line: KafkaLine): KafkaLineLevel {
  const selfResolving =
    TRANSIENT_KAFKA_ERRORS.has(protocolErrorOf(line)?.type ?? '') ||
    isSocketFailure(line) ||
    RETRY_NOTICES.some(
      ({ namespace, opening }) => line.namespace === namespace && line.message.startsWith(opening),
    );
  return selfResolving ? 'debug' : (PINO_LEVEL[line.level] ?? 'info');
}
