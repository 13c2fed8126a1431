"""DuckDB over files exported from the API: one series' minute points saved as the API's CSV and,
from its Arrow stream, as Parquet; the same SQL rolls both up to hours.

    TICKERTAPE_API=http://127.0.0.1:9420 TICKERTAPE_TOKEN=… python duckdb_export.py --out /tmp/x \
        --series 'speed|road=a1,sensor=s1' --field speed --from 2026-01-01T00:40Z --to 2026-01-01T01:20Z

Prints the hourly rows of each file as JSON, for the test to compare with the API's hour points.
"""

import argparse
import json
import os
from pathlib import Path
from urllib.parse import urlencode
from urllib.request import Request, urlopen

import duckdb
import pyarrow as pa
import pyarrow.parquet as pq

from last_hour import last_hour

API = os.environ.get("TICKERTAPE_API", "http://127.0.0.1:9420")
TOKEN = os.environ["TICKERTAPE_TOKEN"]

# Hours from minutes: counts and sums add, the average is their quotient (never an average of
# averages). `time` is ISO-8601 text in both files; time_ms is a timestamp in Parquet.
HOURLY = """
SELECT epoch_ms(date_trunc('hour', time::TIMESTAMPTZ)) AS hour_ms,
       sum(n) AS n, sum(sum) / sum(n) AS avg, min(min) AS min, max(max) AS max
FROM {source}
GROUP BY ALL
ORDER BY hour_ms
"""


def fetch(path: str, params: dict, format: str):
    query = urlencode({**params, "format": format})
    return urlopen(Request(f"{API}{path}?{query}", headers={"Authorization": f"Bearer {TOKEN}"}))


def export_points(out: Path, params: dict) -> tuple[Path, Path]:
    csv_path, parquet_path = out / "points.csv", out / "points.parquet"
    with fetch("/api/v1/points", params, "csv") as response:
        csv_path.write_bytes(response.read())
    with fetch("/api/v1/points", params, "arrow") as response:
        pq.write_table(pa.ipc.open_stream(response).read_all(), parquet_path)
    return csv_path, parquet_path


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--series", required=True)
    parser.add_argument("--field", required=True)
    start, end = last_hour()
    parser.add_argument("--from", dest="start", default=start.isoformat())
    parser.add_argument("--to", dest="end", default=end.isoformat())
    args = parser.parse_args()
    params = {"series": args.series, "field": args.field, "from": args.start, "to": args.end}
    csv_path, parquet_path = export_points(args.out, {**params, "level": "minute"})
    con = duckdb.connect()
    con.execute("SET TimeZone = 'UTC'")
    result = {}
    sources = {"csv": f"read_csv('{csv_path}')", "parquet": f"read_parquet('{parquet_path}')"}
    for name, source in sources.items():
        result[name] = [list(row) for row in con.sql(HOURLY.format(source=source)).fetchall()]
    print(json.dumps(result))
