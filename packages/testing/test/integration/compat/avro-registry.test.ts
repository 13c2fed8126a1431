/**
 * Compatibility: Avro through Apicurio Registry's Confluent-compatible API (ccompat v7) with
 * @kafkajs/confluent-schema-registry, over real Kafka. What the pipeline relies on: subjects
 * with versions, schema ids in the Confluent wire format, decoding old and new writers with one
 * reader, and the registry refusing an incompatible change.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { SchemaType } from '@kafkajs/confluent-schema-registry';
import { Type } from 'avsc';
import { Partitioners } from 'kafkajs';
import { TestStack, waitFor } from '../../../src/index.js';

const CONTENT_TYPE = 'application/vnd.schemaregistry.v1+json';

const v1 = {
  type: 'record' as const,
  name: 'SpeedReading',
  namespace: 'dev.tickertape.compat',
  fields: [
    { name: 'segment', type: 'string' },
    { name: 'ts', type: 'long' },
    { name: 'speed', type: 'double' },
  ],
};
/** Backward compatible: a v2 reader fills `lane` with its default when reading v1 data. */
const v2 = {
  ...v1,
  fields: [...v1.fields, { name: 'lane', type: ['null', 'string'], default: null }],
};
/** Not backward compatible: a v3 reader cannot read v1/v2 data, `sensor` has no default. */
const v3Incompatible = { ...v2, fields: [...v2.fields, { name: 'sensor', type: 'string' }] };
/** Backward compatible with v2 (another optional field), for the positive compatibility check. */
const v3Compatible = {
  ...v2,
  fields: [...v2.fields, { name: 'unit', type: ['null', 'string'], default: null }],
};

interface Reading {
  segment: string;
  ts: number;
  speed: number;
  lane?: string | null;
}

describe('Avro through the schema registry (ccompat API)', () => {
  let stack: TestStack;
  let subject: string;
  let id1: number;
  let id2: number;

  /** A call on the registry's REST API, answering status and parsed body. */
  async function rest(
    method: string,
    path: string,
    body?: unknown,
  ): Promise<{ status: number; body: unknown }> {
    const response = await fetch(`${stack.env.SCHEMA_REGISTRY_URL}${path}`, {
      method,
      headers: { 'Content-Type': CONTENT_TYPE, Accept: CONTENT_TYPE },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    return {
      status: response.status,
      body: text === '' ? undefined : (JSON.parse(text) as unknown),
    };
  }

  const schemaBody = (schema: object) => ({ schema: JSON.stringify(schema) });

  beforeAll(async () => {
    stack = await TestStack.open('compat-avro');
    subject = stack.subject();
    ({ id: id1 } = await stack.registry.register(
      { type: SchemaType.AVRO, schema: JSON.stringify(v1) },
      { subject },
    ));
    ({ id: id2 } = await stack.registry.register(
      { type: SchemaType.AVRO, schema: JSON.stringify(v2) },
      { subject },
    ));
  });
  afterAll(() => stack.close());

  it('gives v2 a new id and makes it latest version 2 of the same subject', async () => {
    expect(id1).toBeGreaterThan(0);
    expect(id2).toBeGreaterThan(0);
    expect(id2).not.toBe(id1);

    expect(await rest('GET', `/subjects/${subject}/versions`)).toEqual({
      status: 200,
      body: [1, 2],
    });
    const latest = await rest('GET', `/subjects/${subject}/versions/latest`);
    expect(latest.status).toBe(200);
    expect(latest.body).toMatchObject({ subject, version: 2, id: id2 });
    expect(JSON.parse((latest.body as { schema: string }).schema)).toEqual(v2);

    expect(await stack.registry.getLatestSchemaId(subject)).toBe(id2);
    expect(await stack.registry.getRegistryId(subject, 1)).toBe(id1);
    // GET /schemas/ids/{id} (what a decoder with a cold cache calls) serves the registered text.
    const byId = await rest('GET', `/schemas/ids/${id1}`);
    expect(byId.status).toBe(200);
    expect(JSON.parse((byId.body as { schema: string }).schema)).toEqual(v1);
  });

  it('answers the existing id, without a new version, when a producer re-registers v1', async () => {
    // A restarting producer of the older version must not add versions to the subject.
    const again = await stack.registry.register(
      { type: SchemaType.AVRO, schema: JSON.stringify(v1) },
      { subject },
    );
    expect(again.id).toBe(id1);
    expect(
      await stack.registry.getRegistryIdBySchema(subject, {
        type: SchemaType.AVRO,
        schema: JSON.stringify(v2),
      }),
    ).toBe(id2);
    expect(await rest('GET', `/subjects/${subject}/versions`)).toEqual({
      status: 200,
      body: [1, 2],
    });
  });

  it('carries Confluent-framed Avro through a topic: magic byte 0, big-endian schema id, then the datum', async () => {
    const topic = await stack.createTopic({ partitions: 1 });
    const producer = stack.kafka.producer({ createPartitioner: Partitioners.DefaultPartitioner });
    const consumer = stack.kafka.consumer({ groupId: stack.name('group'), maxWaitTimeInMs: 500 });
    const received: Buffer[] = [];
    try {
      const r1: Reading = { segment: 'A1-north', ts: 1_795_000_000_000, speed: 87.5 };
      const r2: Reading = { segment: 'A1-south', ts: 1_795_000_001_000, speed: 42.25, lane: 'L2' };
      const encoded1 = await stack.registry.encode(id1, r1);
      const encoded2 = await stack.registry.encode(id2, r2);
      for (const [buffer, id] of [
        [encoded1, id1],
        [encoded2, id2],
      ] as const) {
        expect(buffer.readUInt8(0)).toBe(0);
        expect(buffer.readUInt32BE(1)).toBe(id);
      }
      // After the 5-byte header comes the plain Avro binary datum of the writer schema.
      expect(Type.forSchema(v1).fromBuffer(encoded1.subarray(5))).toEqual(r1);

      await producer.connect();
      await producer.send({
        topic,
        messages: [
          { key: r1.segment, value: encoded1 },
          { key: r2.segment, value: encoded2 },
        ],
      });

      await consumer.connect();
      await consumer.subscribe({ topics: [topic], fromBeginning: true });
      await consumer.run({
        eachMessage: ({ message }) => {
          if (message.value) received.push(message.value);
          return Promise.resolve();
        },
      });
      await waitFor(() => received.length >= 2, {
        description: 'both Avro messages',
        timeoutMs: 30_000,
      });

      expect(received).toHaveLength(2);
      expect(received[0]!.equals(encoded1)).toBe(true);
      expect(received[1]!.equals(encoded2)).toBe(true);
      expect(received[1]!.readUInt32BE(1)).toBe(id2);
      // Each message decodes with its own writer schema, looked up by the id in its header.
      expect(await stack.registry.decode(received[0]!)).toEqual(r1);
      expect(await stack.registry.decode(received[1]!)).toEqual(r2);
    } finally {
      await consumer.disconnect();
      await producer.disconnect();
    }
  }, 60_000);

  it('decodes v2 data with a v1 reader and v1 data with a v2 reader (default null)', async () => {
    const newer: Reading = { segment: 'B7', ts: 1_795_000_002_000, speed: 12.5, lane: 'bus' };
    const older: Reading = { segment: 'B8', ts: 1_795_000_003_000, speed: 99 };
    const newerBytes = await stack.registry.encode(id2, newer);
    const olderBytes = await stack.registry.encode(id1, older);

    // Through the library: `decode` with a reader schema resolves writer → reader.
    expect(
      await stack.registry.decode(newerBytes, { [SchemaType.AVRO]: { readerSchema: v1 } }),
    ).toEqual({
      segment: 'B7',
      ts: 1_795_000_002_000,
      speed: 12.5,
    });
    expect(
      await stack.registry.decode(olderBytes, { [SchemaType.AVRO]: { readerSchema: v2 } }),
    ).toEqual({
      ...older,
      lane: null,
    });

    // The same with avsc directly, the writer schema fetched from the registry by the header id.
    const reader1 = Type.forSchema(v1);
    const reader2 = Type.forSchema(v2);
    const writerOf = async (bytes: Buffer) => {
      const { body } = await rest('GET', `/schemas/ids/${bytes.readUInt32BE(1)}`);
      return Type.forSchema(
        JSON.parse((body as { schema: string }).schema) as Parameters<typeof Type.forSchema>[0],
      );
    };
    const newerWriter = await writerOf(newerBytes);
    const olderWriter = await writerOf(olderBytes);
    expect(reader1.fromBuffer(newerBytes.subarray(5), reader1.createResolver(newerWriter))).toEqual(
      {
        segment: 'B7',
        ts: 1_795_000_002_000,
        speed: 12.5,
      },
    );
    expect(reader2.fromBuffer(olderBytes.subarray(5), reader2.createResolver(olderWriter))).toEqual(
      {
        ...older,
        lane: null,
      },
    );
    // Without resolution the v1 reader would misread v2 bytes: the trailing union is left over.
    expect(() => {
      reader1.fromBuffer(newerBytes.subarray(5));
    }).toThrow();
  });

  it('with BACKWARD on the subject, rejects an incompatible v3 and accepts a compatible one in the check', async () => {
    // The library already set BACKWARD when it registered the subject's first version.
    expect(await rest('GET', `/config/${subject}`)).toEqual({
      status: 200,
      body: { compatibilityLevel: 'BACKWARD' },
    });

    const put = await rest('PUT', `/config/${subject}`, { compatibility: 'BACKWARD' });
    expect(put.status).toBe(200);
    // Apicurio answers the PUT with `compatibilityLevel`; Confluent answers `{"compatibility": …}`.
    expect(put.body).toEqual({ compatibilityLevel: 'BACKWARD' });

    const check = await rest(
      'POST',
      `/compatibility/subjects/${subject}/versions/latest`,
      schemaBody(v3Incompatible),
    );
    expect(check).toEqual({ status: 200, body: { is_compatible: false } });
    const checkOk = await rest(
      'POST',
      `/compatibility/subjects/${subject}/versions/latest`,
      schemaBody(v3Compatible),
    );
    expect(checkOk).toEqual({ status: 200, body: { is_compatible: true } });

    // Registering it is refused with 409, as Confluent does (the message text is Apicurio's own).
    const raw = await rest('POST', `/subjects/${subject}/versions`, schemaBody(v3Incompatible));
    expect(raw.status).toBe(409);
    expect(raw.body).toMatchObject({
      error_code: 409,
      message: expect.stringMatching(/incompatible/i),
    });
    await expect(
      stack.registry.register(
        { type: SchemaType.AVRO, schema: JSON.stringify(v3Incompatible) },
        { subject },
      ),
    ).rejects.toMatchObject({ status: 409 });

    expect(await rest('GET', `/subjects/${subject}/versions`)).toEqual({
      status: 200,
      body: [1, 2],
    });
    expect(await stack.registry.getLatestSchemaId(subject)).toBe(id2);
  });

  it('stand-in gap: subject config falls back to the global level (NONE) instead of 404, which trips the library', async () => {
    const other = stack.subject();
    // Created over plain REST, as another tool would: the subject has no subject-level config.
    const created = await rest('POST', `/subjects/${other}/versions`, schemaBody(v1));
    expect(created).toEqual({ status: 200, body: { id: id1 } }); // same content, same id across subjects

    // stand-in gap: Apicurio's default global compatibility is NONE (Confluent's is BACKWARD), and
    // GET /config/{subject} without a subject-level config answers 200 with the global level where
    // Confluent answers 404 (40408) — even with ?defaultToGlobal=false. The pipeline must not
    // depend on the registry's default: set the subject's compatibility explicitly (PUT) first.
    expect(await rest('GET', '/config')).toEqual({
      status: 200,
      body: { compatibilityLevel: 'NONE' },
    });
    expect(await rest('GET', `/config/${other}`)).toEqual({
      status: 200,
      body: { compatibilityLevel: 'NONE' },
    });
    expect(await rest('GET', `/config/${other}?defaultToGlobal=false`)).toEqual({
      status: 200,
      body: { compatibilityLevel: 'NONE' },
    });
    // Consequence: the library's register() (default compatibility BACKWARD) reads that NONE as a
    // subject-level mismatch and refuses, where against Confluent it would register and set BACKWARD.
    await expect(
      stack.registry.register(
        { type: SchemaType.AVRO, schema: JSON.stringify(v2) },
        { subject: other },
      ),
    ).rejects.toThrow('Compatibility does not match the configuration (BACKWARD != NONE)');

    // With the subject's level set explicitly, the library registers normally.
    expect((await rest('PUT', `/config/${other}`, { compatibility: 'BACKWARD' })).status).toBe(200);
    const registered = await stack.registry.register(
      { type: SchemaType.AVRO, schema: JSON.stringify(v2) },
      { subject: other },
    );
    expect(registered.id).toBe(id2);
    expect(await rest('GET', `/subjects/${other}/versions`)).toEqual({ status: 200, body: [1, 2] });
  });
});
