"""pyarrow and pandas from the API's Arrow stream: a window over every series of a metric.

    TICKERTAPE_API=http://127.0.0.1:9420 TICKERTAPE_TOKEN=… python pandas_arrow.py \
        --metric speed --field speed --from 2026-01-01T00:55Z --to 2026-01-01T01:05Z

Prints the frame as JSON (report.py), with the Arrow schema, for the test to compare with the
API's JSON answer.
"""

import argparse
import os
from urllib.parse import urlencode
from urllib.request import Request, urlopen

import pandas as pd
import pyarrow as pa

from last_hour import last_hour
from report import frame_json

API = os.environ.get("TICKERTAPE_API", "http://127.0.0.1:9420")
TOKEN = os.environ["TICKERTAPE_TOKEN"]
ARROW_STREAM = "application/vnd.apache.arrow.stream"


def read_window(metric: str, field: str, start: str, end: str) -> pa.Table:
    query = urlencode({"metric": metric, "field": field, "from": start, "to": end})
    request = Request(
        f"{API}/api/v1/window?{query}",
        headers={"Authorization": f"Bearer {TOKEN}", "Accept": ARROW_STREAM},
    )
    with urlopen(request) as response:
        return pa.ipc.open_stream(response).read_all()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--metric", required=True)
    parser.add_argument("--field", required=True)
    start, end = last_hour()
    parser.add_argument("--from", dest="start", default=start.isoformat())
    parser.add_argument("--to", dest="end", default=end.isoformat())
    args = parser.parse_args()
    table = read_window(args.metric, args.field, args.start, args.end)
    window: pd.DataFrame = table.to_pandas()
    schema = {field.name: str(field.type) for field in table.schema}
    print(frame_json(window, arrow_schema=schema))
