"""The examples' default range: the hour up to now, so a run soon after scripts/demo.sh reads the
demo's ticks without typing their times (the API takes ISO-8601 with an offset, or epoch ms)."""

from datetime import datetime, timedelta, timezone


def last_hour() -> tuple[datetime, datetime]:
    end = datetime.now(timezone.utc).replace(microsecond=0)
    return end - timedelta(hours=1), end
