export const ProducerErrorCode = {
  Closed: 'PRODUCER_CLOSED',
  ProduceFailed: 'PRODUCE_FAILED',
  TopicMissing: 'TOPIC_MISSING',
  TopicsNotReady: 'TOPICS_NOT_READY',
  InvalidTopicLayout: 'INVALID_TOPIC_LAYOUT',
  RedriveFailed: 'REDRIVE_FAILED',
} as const;
export type ProducerErrorCode = (typeof ProducerErrorCode)[keyof typeof ProducerErrorCode];
