"""pandas from the collections with pymongo: the 10-minute average of many sensors from the hour
buckets, through the pipeline docs/data-layout.md documents (and tests) for mongosh.

    MONGODB_URI=mongodb://127.0.0.1:27017 python pymongo_pipeline.py --database tickertape \
        --metric traffic --field speed --sensor 900001 --sensor 900006 \
        --from 2026-11-21T10:55:00Z --to 2026-11-21T11:05:00Z

Prints the frame as JSON (report.py); with --print-pipeline, the collection and the pipeline as
MongoDB Extended JSON instead, which the test compares with the pipeline of data-layout.md.
"""

import argparse
import json
import os
from datetime import datetime, timedelta

import pandas as pd
from bson import json_util
from pymongo import MongoClient

from last_hour import last_hour
from report import frame_json

HOUR = timedelta(hours=1)


def ten_minute_average(metric, field, sensors, start, end):
    """data-layout.md, "10-minute average speed of many sensors": the hour buckets that can hold
    a minute of [start, end), their minutes unwound, cut to the window, summed per sensor. The
    `n > 0` filters skip preallocated shells' padding: a bucket or a minute nobody wrote has
    n 0 (and sum 0), which would count a shell as a series and divide by zero."""
    return [
        {
            "$match": {
                "metric": metric,
                "tags.sensor": {"$in": sensors},
                "start": {"$gt": start - HOUR, "$lt": end},
                f"f.{field}.n": {"$gt": 0},
            }
        },
        {
            "$project": {
                "sensor": "$tags.sensor",
                "start": 1,
                "minutes": {"$objectToArray": f"$f.{field}.m"},
            }
        },
        {"$unwind": "$minutes"},
        {"$match": {"minutes.v.n": {"$gt": 0}}},
        {
            "$project": {
                "sensor": 1,
                "at": {"$add": ["$start", {"$multiply": [{"$toInt": "$minutes.k"}, 60000]}]},
                "n": "$minutes.v.n",
                "sum": "$minutes.v.sum",
            }
        },
        {"$match": {"at": {"$gte": start, "$lt": end}}},
        {"$group": {"_id": "$sensor", "n": {"$sum": "$n"}, "sum": {"$sum": "$sum"}}},
        {"$project": {"_id": 0, "sensor": "$_id", "n": 1, "avg": {"$divide": ["$sum", "$n"]}}},
        {"$sort": {"sensor": 1}},
    ]


def hour_partition(start: datetime) -> str:
    """The hour level's partition of the window's month (one collection per month, UTC)."""
    return f"rollup_hour_{start:%Y%m}"


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--database", default="tickertape")
    parser.add_argument("--metric", required=True)
    parser.add_argument("--field", required=True)
    parser.add_argument("--sensor", action="append", required=True)
    start, end = last_hour()
    parser.add_argument("--from", dest="start", type=datetime.fromisoformat, default=start)
    parser.add_argument("--to", dest="end", type=datetime.fromisoformat, default=end)
    parser.add_argument("--print-pipeline", action="store_true")
    args = parser.parse_args()
    collection = hour_partition(args.start)
    pipeline = ten_minute_average(args.metric, args.field, args.sensor, args.start, args.end)
    if args.print_pipeline:
        extended = json.loads(json_util.dumps(pipeline))
        print(json.dumps({"collection": collection, "pipeline": extended}))
    else:
        client = MongoClient(os.environ.get("MONGODB_URI", "mongodb://127.0.0.1:27017"))
        rows = list(client[args.database][collection].aggregate(pipeline))
        print(frame_json(pd.DataFrame(rows, columns=["sensor", "n", "avg"])))
