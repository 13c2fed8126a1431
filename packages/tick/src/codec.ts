import { SchemaType, type SchemaRegistry } from '@kafkajs/confluent-schema-registry';
import avsc, { type Resolver, type Type } from 'avsc';
import { resolveLimits, type TickLimits } from './limits.js';
import { TickRejectedError } from './rejection.js';
import { httpStatusOf, RegistryRequestError, schemaLookupFailure } from './registry-error.js';
import {
  DEFAULT_SUBJECT,
  TICK_SCHEMAS,
  type TickAvroSchema,
  type TickSchemaVersion,
} from './schema.js';
import { setSubjectCompatibility, type RegistryEndpoint } from './subject-config.js';
import type { Tick } from './tick.js';
import { validateTick } from './validate.js';
import { HEADER_BYTES, readFrameHeader } from './wire-frame.js';

export interface TickCodecOptions {
  /** The registry id of this codec's schema: what `encode` writes, what `decode` reads into. */
  schemaId: number;
  version: TickSchemaVersion;
  limits?: Partial<TickLimits>;
}

export interface RegisterTickSchemaOptions {
  /** The registry the client talks to; needed for the compatibility PUT it does not offer. */
  registry: RegistryEndpoint;
  version: TickSchemaVersion;
  /** Default `raw-ticks-value`. */
  subject?: string;
  limits?: Partial<TickLimits>;
}

/**
 * Encodes ticks with one schema version and decodes any registered version into it, so a v1
 * worker reads v2 data (dropping `source`) and a v2 worker reads v1 data (`source: null`).
 * Writer schemas are fetched once per id and cached by the registry client.
 */
export class TickCodec {
  readonly schemaId: number;
  readonly version: TickSchemaVersion;
  readonly schema: TickAvroSchema;
  readonly limits: TickLimits;
  private readonly reader: Type;
  private readonly resolvers = new Map<number, Resolver>();

  constructor(
    private readonly registry: SchemaRegistry,
    options: TickCodecOptions,
  ) {
    this.schemaId = options.schemaId;
    this.version = options.version;
    this.schema = TICK_SCHEMAS[options.version];
    this.limits = resolveLimits(options.limits);
    this.reader = avsc.Type.forSchema(this.schema);
  }

  /**
   * Sets the subject to BACKWARD, registers this version's schema (or finds it already there)
   * and returns a codec bound to its id. Safe to call at every start, from every replica.
   */
  static async register(
    registry: SchemaRegistry,
    options: RegisterTickSchemaOptions,
  ): Promise<TickCodec> {
    const subject = options.subject ?? DEFAULT_SUBJECT;
    await setSubjectCompatibility(options.registry, subject, 'BACKWARD');
    let schemaId: number;
    try {
      ({ id: schemaId } = await registry.register(
        { type: SchemaType.AVRO, schema: JSON.stringify(TICK_SCHEMAS[options.version]) },
        { subject },
      ));
    } catch (err) {
      throw new RegistryRequestError(
        `registering tick schema v${options.version} under ${subject}`,
        httpStatusOf(err),
        err,
      );
    }
    return new TickCodec(registry, {
      schemaId,
      version: options.version,
      limits: options.limits,
    });
  }

  /**
   * Validates and encodes in the Confluent wire format. Refuses what a worker would
   * dead-letter (TickRejectedError), so a producer finds out at once. A v1 codec drops
   * `source`: v1 has nowhere to put it.
   */
  async encode(tick: Tick): Promise<Buffer> {
    const { metric, tags, ts, fields, strings, source } = validateTick(tick, this.limits);
    const record =
      this.version === 1
        ? { metric, tags, ts, fields, strings }
        : { metric, tags, ts, fields, strings, source };
    let message: Buffer;
    try {
      message = await this.registry.encode(this.schemaId, record);
    } catch (err) {
      const status = httpStatusOf(err);
      if (status === undefined) throw err;
      throw new RegistryRequestError(`fetching schema id ${this.schemaId}`, status, err);
    }
    if (message.length > this.limits.maxMessageBytes) {
      throw new TickRejectedError(
        'OVERSIZED',
        `${message.length} bytes encoded, at most ${this.limits.maxMessageBytes}`,
      );
    }
    return message;
  }

  /**
   * Decodes one message into a valid Tick, or throws a TickRejectedError (dead-letter it) or a
   * RegistryRequestError (the registry is unavailable: retry, do not dead-letter).
   */
  async decode(message: Buffer): Promise<Tick> {
    const schemaId = readFrameHeader(message, this.limits);
    const resolver = this.resolvers.get(schemaId) ?? (await this.resolverFor(schemaId));
    return this.read(message, schemaId, resolver);
  }

  /**
   * `decode` without a promise, for a message whose writer schema this codec has already
   * resolved: a worker's hot loop decodes thousands of messages of one or two schemas, and an
   * `await` for each costs a microtask and a promise. Undefined when the schema is not resolved
   * yet: `decode` then fetches it. Throws what `decode` throws.
   */
  decodeResolved(message: Buffer): Tick | undefined {
    const schemaId = readFrameHeader(message, this.limits);
    const resolver = this.resolvers.get(schemaId);
    return resolver === undefined ? undefined : this.read(message, schemaId, resolver);
  }

  private read(message: Buffer, schemaId: number, resolver: Resolver): Tick {
    let raw: unknown;
    try {
      // Read in place from after the header (no subarray: a Buffer per message costs more than
      // the read). The same checks as fromBuffer without noCheck: trailing bytes are an error.
      const read: { value: unknown; offset: number } = this.reader.decode(
        message,
        HEADER_BYTES,
        resolver,
      );
      if (read.offset === -1) throw new Error('truncated buffer');
      if (read.offset < message.length) throw new Error('trailing data');
      raw = read.value;
    } catch (err) {
      const reason = err instanceof Error ? err.message : String(err);
      throw new TickRejectedError('DECODE_ERROR', `schema id ${schemaId}: ${reason}`, {
        cause: err,
      });
    }
    return validateTick(raw, this.limits);
  }

  /**
   * Reading through the registry client with a `readerSchema` rebuilds the reader type on every
   * call (~90 µs a message, most of a worker's CPU); a resolver per writer id, built once, makes
   * a decode about a microsecond. The writer schema still comes through the client's cache.
   * Fetching it on its own also tells a bad id from bad bytes by where the failure happens.
   */
  private async resolverFor(schemaId: number): Promise<Resolver> {
    try {
      await this.registry.getSchema(schemaId);
    } catch (err) {
      throw schemaLookupFailure(schemaId, err);
    }
    const cached = this.registry.cache.getSchema(schemaId);
    if (cached?.type !== SchemaType.AVRO) {
      throw new TickRejectedError('UNKNOWN_SCHEMA', `schema id ${schemaId} is not an Avro schema`);
    }
    const resolver = this.reader.createResolver(cached.schema as unknown as Type);
    this.resolvers.set(schemaId, resolver);
    return resolver;
  }
}
