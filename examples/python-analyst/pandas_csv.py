"""pandas from the API's CSV: one series' points, read by pd.read_csv straight from the URL.

    TICKERTAPE_API=http://127.0.0.1:9420 TICKERTAPE_TOKEN=… python pandas_csv.py \
        --series 'speed|road=a1,sensor=s1' --field speed --from 2026-01-01T00:40Z --to 2026-01-01T01:20Z

Prints the frame as JSON (report.py) for the test to compare with the API's JSON answer.
"""

import argparse
import os
import re
from urllib.parse import urlencode

import pandas as pd

from last_hour import last_hour
from report import frame_json

API = os.environ.get("TICKERTAPE_API", "http://127.0.0.1:9420")
TOKEN = os.environ["TICKERTAPE_TOKEN"]


def tag_names(series: str) -> list[str]:
    """The tags of a series key (`metric|k1=v1,k2=v2`, a comma in a value escaped as `\\,`)."""
    _, _, tags = series.partition("|")
    return [pair.split("=", 1)[0] for pair in re.split(r"(?<!\\),", tags) if pair]


def read_points(series: str, field: str, start: str, end: str) -> pd.DataFrame:
    query = urlencode({"series": series, "field": field, "from": start, "to": end, "format": "csv"})
    # For an http(s) URL, pandas sends storage_options as request headers. Tags are text, also
    # when they look like numbers (sensor=900002 would be read as int64).
    return pd.read_csv(
        f"{API}/api/v1/points?{query}",
        storage_options={"Authorization": f"Bearer {TOKEN}"},
        parse_dates=["time"],
        dtype={tag: str for tag in tag_names(series)},
    )


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--series", required=True)
    parser.add_argument("--field", required=True)
    start, end = last_hour()
    parser.add_argument("--from", dest="start", default=start.isoformat())
    parser.add_argument("--to", dest="end", default=end.isoformat())
    args = parser.parse_args()
    print(frame_json(read_points(args.series, args.field, args.start, args.end)))
