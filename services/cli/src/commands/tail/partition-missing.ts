import { TickertapeError } from '@tickertape/errors';

/** `--partition` beyond the topic's partitions: said at once, instead of reading nothing. */
export class PartitionMissingError extends TickertapeError {
  override readonly name = 'PartitionMissingError';
  constructor(topic: string, partition: number, partitions: number) {
    super(
      'PARTITION_MISSING',
      `${topic} has no partition ${partition}: its partitions are 0 to ${partitions - 1}`,
      { retriable: false },
    );
  }
}
