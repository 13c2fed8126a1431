import { isRetriable, TickertapeError } from '@tickertape/errors';
import { ProducerErrorCode } from './codes.js';

/** `send` after `close()` began: the tick was not taken. */
export class ProducerClosedError extends TickertapeError {
  override readonly name = 'ProducerClosedError';
  constructor(topic: string) {
    super(ProducerErrorCode.Closed, `the producer for ${topic} is closed`);
  }
}

/**
 * The broker did not acknowledge a batch after kafkajs' own retries. Every tick of the batch
 * fails with this error; whether sending again may help is decided by the kafkajs cause.
 */
export class ProduceFailedError extends TickertapeError {
  override readonly name = 'ProduceFailedError';
  readonly topic: string;
  readonly ticks: number;

  constructor(topic: string, ticks: number, cause: unknown) {
    const reason = cause instanceof Error ? cause.message : String(cause);
    super(
      ProducerErrorCode.ProduceFailed,
      `a batch of ${ticks} ticks to ${topic} was not acknowledged: ${reason}`,
      { retriable: isRetriable(cause), cause },
    );
    this.topic = topic;
    this.ticks = ticks;
  }
}

/**
 * Producers never create topics (`allowAutoTopicCreation: false`): a typo would otherwise make
 * a new topic with the broker's default partition count and scatter series across it.
 */
/** Created topics whose partitions still had no leader, or were unknown to a broker, at the deadline. */
export class TopicsNotReadyError extends TickertapeError {
  override readonly name = 'TopicsNotReadyError';
  constructor(topics: readonly string[], waitedMs: number, cause?: unknown) {
    super(
      ProducerErrorCode.TopicsNotReady,
      `topics ${topics.join(', ')} were created but not every partition had a leader after ${waitedMs} ms`,
      { retriable: true, cause },
    );
  }
}

export class TopicMissingError extends TickertapeError {
  override readonly name = 'TopicMissingError';
  readonly topic: string;

  constructor(topic: string) {
    super(
      ProducerErrorCode.TopicMissing,
      `topic ${topic} does not exist; \`tickertape topics create\` makes the raw and DLQ topics`,
    );
    this.topic = topic;
  }
}

export class TopicLayoutError extends TickertapeError {
  override readonly name = 'TopicLayoutError';
  constructor(problem: string) {
    super(ProducerErrorCode.InvalidTopicLayout, problem);
  }
}

/**
 * A redrive stopped part way. Records counted as redriven in `redrivenSoFar` were acknowledged
 * by the broker; running the redrive again re-sends them (the rollups absorb the replay, but the
 * operator should know).
 */
export class RedriveFailedError extends TickertapeError {
  override readonly name = 'RedriveFailedError';
  readonly redrivenSoFar: number;

  constructor(dlqTopic: string, redrivenSoFar: number, cause: unknown) {
    const reason = cause instanceof Error ? cause.message : String(cause);
    super(
      ProducerErrorCode.RedriveFailed,
      `redrive from ${dlqTopic} stopped after ${redrivenSoFar} records were redriven: ${reason}`,
      { retriable: isRetriable(cause), cause },
    );
    this.redrivenSoFar = redrivenSoFar;
  }
}
