"""Python client of mdc, the market data collection service.

Quick start::

    import mdc
    client = mdc.Client("http://127.0.0.1:8080", token)
    client.save_shortlist(moment, "TOP_GAINERS", [{"nseSymbol": "RELIANCE", "price": 2950.5}])
    print(client.shortlist("TOP_GAINERS", as_of=moment))

The generated messages of the contract are in ``mdc.v1`` (``market_pb2``,
``collector_pb2``, ``developer_pb2``, ``dashboard_pb2``, ``admin_pb2``,
``health_pb2``, ``stream_pb2``).
"""

from mdc.client import Client
from mdc.errors import FieldViolation, MdcError
from mdc.streams import EventStream
from mdc.times import to_datetime

__all__ = ["Client", "EventStream", "FieldViolation", "MdcError", "to_datetime"]
__version__ = "0.1.0"
