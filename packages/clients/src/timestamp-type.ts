import kafkajs, { type Admin } from 'kafkajs';

// Not a named export Node can see in kafkajs' CommonJS module: read off the default one.
const { ConfigResourceTypes } = kafkajs;

const SETTING = 'message.timestamp.type';

/** The tick topic's wanted `message.timestamp.type`: the broker's append time. */
export const LOG_APPEND_TIME = 'LogAppendTime';

/**
 * The topic's `message.timestamp.type` as the brokers answer it (`CreateTime` when nobody set
 * it: Kafka's default), or undefined when the topic is not described (a missing topic, or a
 * principal without DescribeConfigs: a warning is not worth failing a command for).
 */
export async function topicTimestampType(admin: Admin, topic: string): Promise<string | undefined> {
  try {
    // Asked of a missing topic, the brokers answer with a retriable error kafkajs retries for
    // half a minute: a missing topic is the caller's to report, not this check's.
    if (!(await admin.listTopics()).includes(topic)) return undefined;
    const { resources } = await admin.describeConfigs({
      includeSynonyms: false,
      resources: [{ type: ConfigResourceTypes.TOPIC, name: topic, configNames: [SETTING] }],
    });
    return resources[0]?.configEntries.find((entry) => entry.configName === SETTING)?.configValue;
  } catch {
    return undefined;
  }
}

/**
 * What is wrong with a tick topic whose records carry the producers' clocks, and the command that
 * fixes it, or undefined when the topic keeps broker append times (or its setting is unknown).
 * The workers judge lateness, and `groups` measures lag in seconds, by the record's timestamp
 * (docs/history.md): with `CreateTime` both move onto every producer's clock, silently.
 */
export function timestampTypeProblem(
  topic: string,
  timestampType: string | undefined,
  brokers: readonly string[],
): string | undefined {
  if (timestampType === undefined || timestampType === LOG_APPEND_TIME) return undefined;
  return (
    `${topic} has ${SETTING}=${timestampType}, not ${LOG_APPEND_TIME}: lateness and lag in ` +
    "seconds go by the producers' clocks. Fix (for the records appended from then on): " +
    `kafka-configs.sh --bootstrap-server ${brokers.join(',')} --alter --entity-type ` +
    `topics --entity-name ${topic} --add-config ${SETTING}=${LOG_APPEND_TIME}`
  );
}
