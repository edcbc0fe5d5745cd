"""Reads a Parquet file with pyarrow and prints what the export tests check.

    python parquet_summary.py FILE

Prints one JSON object: the row count, each column's Arrow type as pyarrow
names it (timestamp[us, tz=UTC], date32[day], double, string, int32), the
null count of each column, and every value as text (None for null): a file
of a test is small; and the file's key-value metadata but Arrow's schema.
"""

import json
import sys

import pyarrow.parquet as pq


def main() -> None:
    table = pq.read_table(sys.argv[1])
    metadata = pq.read_metadata(sys.argv[1]).metadata or {}
    summary = {
        "metadata": {
            k.decode(): v.decode() for k, v in metadata.items() if k != b"ARROW:schema"
        },
        "rows": table.num_rows,
        "types": {f.name: str(f.type) for f in table.schema},
        "nulls": {name: table.column(name).null_count for name in table.column_names},
        "values": {
            name: [None if v is None else str(v) for v in table.column(name).to_pylist()]
            for name in table.column_names
        },
    }
    json.dump(summary, sys.stdout)


if __name__ == "__main__":
    main()
