"""Prints a DataFrame as JSON for the tests (services/api/test/integration/python-analyst.test.ts):
its columns, each column's dtype, and its rows with times as epoch milliseconds and nulls as
null. Not part of the examples themselves."""

import json

import pandas as pd


def frame_json(frame: pd.DataFrame, **extra: object) -> str:
    plain = frame.copy()
    for column in plain.columns:
        if isinstance(plain[column].dtype, pd.DatetimeTZDtype):
            plain[column] = plain[column].dt.as_unit("ms").astype("int64")
    rows = plain.astype(object).where(plain.notna(), None).values.tolist()
    return json.dumps(
        {
            "columns": [str(c) for c in frame.columns],
            "dtypes": {str(c): str(t) for c, t in frame.dtypes.items()},
            "rows": rows,
            **extra,
        }
    )
