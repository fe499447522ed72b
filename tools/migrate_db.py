"""``python3 tasks.py migrate-db [--from FILE] [--to URL]``: copy the SQLite database into PostgreSQL.

Defaults come from the settings (``.env``): ``--from`` is DATABASE_PATH (or the default file),
``--to`` is DATABASE_URL. Stop the bot first (rows written during the copy would be missed);
afterwards set DATABASE_URL and start the processes. See docs/deploy.md.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys

from store.base import is_postgres_url
from store.transfer import TransferError, copy_sqlite_to_postgres


def main(argv: list[str]) -> int:
    import app_settings

    settings = app_settings.load()
    parser = argparse.ArgumentParser(prog="tasks.py migrate-db", description=__doc__.splitlines()[0])
    parser.add_argument("--from", dest="source", default=str(settings.database_path),
                        help="SQLite file to copy (default: DATABASE_PATH)")
    parser.add_argument("--to", dest="url", default=settings.database_url or os.environ.get("DATABASE_URL"),
                        help="postgresql:// URL of an empty database (default: DATABASE_URL)")
    args = parser.parse_args(argv)
    if not is_postgres_url(args.url):
        print("migrate-db needs a postgresql:// URL (--to or DATABASE_URL).", file=sys.stderr)
        return 2
    try:
        report = asyncio.run(copy_sqlite_to_postgres(args.source, args.url))
    except TransferError as err:
        print(f"migrate-db: {err}", file=sys.stderr)
        return 1
    print(f"Copied {args.source} into PostgreSQL: {report.summary()}.")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
