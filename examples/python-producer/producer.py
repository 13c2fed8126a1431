"""Publish ticks to tickertape from Python with confluent-kafka (librdkafka).

Reads ticks as JSON lines -- the same format as `tickertape publish --input-format jsonl`:

    {"metric": "traffic", "tags": {"sensor": "s1"}, "ts": 1795255200000,
     "fields": {"speed": 42.5}, "strings": {"conditions": "rain"}}

and publishes each one the way tickertape's own producer SDK does (docs/producing.md):

* value: Avro in the Confluent wire format, with the schema registered under the topic's value
  subject (`<topic>-value`), fetched as its latest version -- never registered from here;
* key: the series key, `metric|k1=v1,k2=v2` (tags sorted, separators escaped), UTF-8;
* partitioner: `murmur2_random`, the Java client's murmur2 on the key, which is where KafkaJS'
  DefaultPartitioner (tickertape's SDK) puts the same key. librdkafka's default,
  `consistent_random` (CRC32), would put a series elsewhere.

Configuration from the environment, as every tickertape process reads it: KAFKA_BROKERS,
SCHEMA_REGISTRY_URL and, when set, SCHEMA_REGISTRY_USERNAME / SCHEMA_REGISTRY_PASSWORD.

    python producer.py --topic raw-ticks ticks.jsonl      # or - (the default) for stdin
    python producer.py --sample 60 | python producer.py   # 60 s of made-up ticks ending now
"""

from __future__ import annotations

import argparse
import json
import math
import os
import re
import sys
import time
from datetime import datetime
from typing import Any, Iterable, Iterator

from confluent_kafka import KafkaException, Producer
from confluent_kafka.schema_registry import SchemaRegistryClient
from confluent_kafka.schema_registry.error import SchemaRegistryError
from confluent_kafka.schema_registry.avro import AvroSerializer
from confluent_kafka.serialization import MessageField, SerializationContext

# `\`, `|`, `,`, `=` and `:` separate the parts of a series key (and the key from the slot in
# bucket ids), so they are backslash-escaped inside metric names, tag keys and tag values.
_SPECIAL = re.compile(r"([\\|,=:])")


def _escape(part: str) -> str:
    return _SPECIAL.sub(r"\\\1", part)


def _utf16_order(text: str) -> bytes:
    # JavaScript sorts strings by UTF-16 code unit; Python by code point. The two differ only
    # for characters above U+FFFF against U+E000..U+FFFF, and big-endian UTF-16 bytes compare
    # exactly like code units, so this orders tag keys as the SDK does for every key.
    return text.encode("utf-16-be")


def series_key(metric: str, tags: dict[str, str]) -> str:
    """The series key, byte for byte as @tickertape/tick's seriesKey builds it."""
    if not tags:
        return _escape(metric)
    pairs = [f"{_escape(k)}={_escape(tags[k])}" for k in sorted(tags, key=_utf16_order)]
    return f"{_escape(metric)}|{','.join(pairs)}"


def _timestamp(value: Any) -> int:
    """Epoch milliseconds, or an ISO 8601 time with a zone (as `tickertape publish` takes)."""
    if isinstance(value, bool):
        raise ValueError(f"ts must be epoch ms or an ISO time, not {value!r}")
    if isinstance(value, int):
        return value
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, str):
        parsed = datetime.fromisoformat(value.replace("Z", "+00:00"))
        if parsed.tzinfo is None:
            raise ValueError(f"ts {value!r} has no time zone")
        return round(parsed.timestamp() * 1000)
    raise ValueError(f"ts must be epoch ms or an ISO time, not {value!r}")


def tick_record(line: dict[str, Any], source: str | None) -> dict[str, Any]:
    """One JSON line as the Avro record of schema v2 (`source` is null when not given)."""
    fields = {str(k): float(v) for k, v in line["fields"].items()}
    for name, value in fields.items():
        # The workers dead-letter these (INVALID_VALUE); refusing here says so at once.
        if not math.isfinite(value):
            raise ValueError(f"field {name} is {value}: only finite numbers")
    return {
        "metric": line["metric"],
        "tags": {str(k): str(v) for k, v in (line.get("tags") or {}).items()},
        "ts": _timestamp(line["ts"]),
        "fields": fields,
        "strings": {str(k): str(v) for k, v in (line.get("strings") or {}).items()},
        "source": line.get("source", source),
    }


def read_lines(stream: Iterable[str]) -> Iterator[tuple[int, dict[str, Any]]]:
    for number, text in enumerate(stream, start=1):
        if text.strip():
            yield number, json.loads(text)


def sample(seconds: int, now_ms: int) -> Iterator[dict[str, Any]]:
    """Three sensors, one reading every 2 s for `seconds`, ending now: for trying it by hand."""
    for ts in range(now_ms - seconds * 1000, now_ms, 2000):
        for sensor in ("py-1", "py-2", "py-3"):
            yield {
                "metric": "traffic",
                "tags": {"sensor": sensor, "site": "example"},
                "ts": ts,
                "fields": {"speed": 40 + (ts // 1000) % 30, "occupancy": 0.25},
                "strings": {"conditions": "dry" if (ts // 60_000) % 2 else "rain"},
            }


def registry_client() -> SchemaRegistryClient:
    conf = {"url": os.environ["SCHEMA_REGISTRY_URL"]}
    user = os.environ.get("SCHEMA_REGISTRY_USERNAME")
    if user:
        conf["basic.auth.user.info"] = f"{user}:{os.environ.get('SCHEMA_REGISTRY_PASSWORD', '')}"
    return SchemaRegistryClient(conf)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("file", nargs="?", default="-", help="JSON lines of ticks (- for stdin)")
    parser.add_argument("--topic", default="raw-ticks")
    parser.add_argument("--source", default="python-producer", help="the ticks' `source` field")
    parser.add_argument(
        "--partitioner",
        default="murmur2_random",
        help="librdkafka partitioner; keep murmur2_random (docs/producing.md)",
    )
    parser.add_argument("--sample", type=int, metavar="SECONDS", help="print sample ticks, exit")
    args = parser.parse_args()

    if args.sample is not None:
        for line in sample(args.sample, int(time.time() * 1000)):
            print(json.dumps(line))
        return 0

    serializer = AvroSerializer(
        registry_client(),
        # No schema here: the producer writes with whatever version the subject holds now.
        schema_str=None,
        conf={"auto.register.schemas": False, "use.latest.version": True},
    )
    producer = Producer(
        {
            "bootstrap.servers": os.environ["KAFKA_BROKERS"],
            "partitioner": args.partitioner,
            # Idempotent: a retried batch is neither duplicated nor reordered, so each series
            # keeps its order within its partition (what the segment store's guard relies on).
            "enable.idempotence": True,
            "acks": "all",
            "linger.ms": 20,
        }
    )
    failures: list[str] = []
    partitions: dict[int, int] = {}

    def delivered(err: Any, msg: Any) -> None:
        if err is not None:
            failures.append(str(err))
        else:
            partitions[msg.partition()] = partitions.get(msg.partition(), 0) + 1

    context = SerializationContext(args.topic, MessageField.VALUE)
    stream = sys.stdin if args.file == "-" else open(args.file, encoding="utf-8")
    sent = 0
    with stream:
        for number, line in read_lines(stream):
            try:
                record = tick_record(line, args.source)
            except (KeyError, TypeError, ValueError) as err:
                print(f"line {number}: {err!r}", file=sys.stderr)
                return 2
            key = series_key(record["metric"], record["tags"]).encode("utf-8")
            value = serializer(record, context)
            while True:
                try:
                    producer.produce(args.topic, key=key, value=value, on_delivery=delivered)
                    break
                except BufferError:
                    producer.poll(0.1)  # the local queue is full: let deliveries drain
            producer.poll(0)
            sent += 1
    left = producer.flush(60)
    if left or failures:
        print(f"{left} ticks not delivered, {len(failures)} failed: {failures[:3]}", file=sys.stderr)
        return 1
    spread = ", ".join(f"{p}: {n}" for p, n in sorted(partitions.items()))
    print(f"{sent} ticks published to {args.topic} (per partition {spread})", file=sys.stderr)
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except KafkaException as err:
        print(f"kafka: {err}", file=sys.stderr)
        sys.exit(1)
    except SchemaRegistryError as err:
        # 404 on the subject: nothing registered the tick schema for this topic yet (a worker
        # or `tickertape publish` does on start); this producer never registers one.
        print(f"schema registry: {err}", file=sys.stderr)
        sys.exit(1)
