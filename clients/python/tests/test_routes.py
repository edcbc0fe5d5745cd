"""The REST mapping read from the contract's google.api.http rules (no server)."""

from __future__ import annotations

import json

import pytest
from google.protobuf import field_mask_pb2
from mdc.v1 import admin_pb2, collector_pb2, dashboard_pb2, developer_pb2, market_pb2

import mdc
from mdc.methods import all_methods, find_method


def test_every_rpc_of_the_contract_has_a_route() -> None:
    methods = all_methods()
    names = {m.name for m in methods}
    assert {"CollectorService.SaveShortlist", "DeveloperService.GetList", "AdminService.CreateDeveloper",
            "DashboardService.UpdateRun", "HealthService.Check"} <= names
    for method in methods:
        assert method.route.template.startswith("/v1/"), method.name
        assert method.route.verb in {"GET", "POST", "PUT", "PATCH", "DELETE"}


def test_names_may_carry_the_package_or_a_slash() -> None:
    assert find_method("mdc.v1.DeveloperService/GetList") is find_method("DeveloperService.GetList")
    with pytest.raises(mdc.InvalidArgument, match="no service"):
        find_method("NoService.GetList")


def test_get_fields_go_to_the_query_with_json_names() -> None:
    request = developer_pb2.GetQuoteTimelineRequest(
        symbol="M&M", start_datetime="2025-01-02T09:15:00", timezone="UTC", page_size=2
    )
    built = find_method("DeveloperService.GetQuoteTimeline").route.build(request)
    assert (built.verb, built.path, built.body) == ("GET", "/v1/developer/quote-timeline", None)
    assert built.query == [("symbol", "M&M"), ("startDatetime", "2025-01-02T09:15:00"),
                           ("timezone", "UTC"), ("pageSize", "2")]


def test_body_star_keeps_required_empty_lists_and_snake_case_payload() -> None:
    request = collector_pb2.SaveShortlistRequest(
        data=collector_pb2.ShortlistData(timestamp="2025-01-02T04:00:00", shortlist_type="TOP_GAINERS")
    )
    built = find_method("CollectorService.SaveShortlist").route.build(request)
    assert built.body == {"data": {"timestamp": "2025-01-02T04:00:00", "shortlistType": "TOP_GAINERS",
                                   "entries": []}}
    quotes = collector_pb2.SaveQuotesRequest(data=collector_pb2.QuotesData(quotes=[collector_pb2.QuoteItem(
        nse_symbol="TCS",
        quote_data=market_pb2.QuoteData(status="SUCCESS", payload=market_pb2.QuotePayload(last_price=0, week_52_high=5)),
    )]))
    body = find_method("CollectorService.SaveQuotes").route.build(quotes).body
    assert body["data"]["quotes"][0]["quoteData"]["payload"] == {"last_price": 0.0, "week_52_high": 5.0}


def test_path_variables_are_escaped_and_left_out_of_the_query() -> None:
    built = find_method("DashboardService.ListOrders").route.build(
        dashboard_pb2.ListOrdersRequest(run_id="12/..?x", target_gain_percentage=0)
    )
    assert built.path == "/v1/dashboard/runs/12%2F..%3Fx/orders"
    assert built.query == [("targetGainPercentage", "0.0")]


def test_a_masked_body_holds_exactly_the_masked_fields_with_defaults() -> None:
    request = dashboard_pb2.UpdateRunRequest(
        run_id="7",
        run=dashboard_pb2.RunUpdate(completed=False, name="ignored", tags=[]),
        update_mask=field_mask_pb2.FieldMask(paths=["completed", "tags"]),
    )
    built = find_method("DashboardService.UpdateRun").route.build(request)
    assert (built.verb, built.path, built.query) == ("PATCH", "/v1/dashboard/runs/7", [])
    assert built.body == {"completed": False, "tags": []}
    assert json.loads(built.body_bytes() or b"") == built.body


def test_delete_with_a_body_and_patch_without_one() -> None:
    deleted = find_method("AdminService.DeleteHolidays").route.build(
        admin_pb2.DeleteHolidaysRequest(dates=["2031-03-14"])
    )
    assert (deleted.verb, deleted.path, deleted.body) == ("DELETE", "/v1/admin/holidays", {"dates": ["2031-03-14"]})
    refreshed = find_method("AdminService.RefreshDeveloperKey").route.build(admin_pb2.RefreshDeveloperKeyRequest(id="3"))
    assert (refreshed.verb, refreshed.path, refreshed.query, refreshed.body) == (
        "PATCH", "/v1/admin/developers/3/refresh-key", [], None)


def test_map_fields_in_a_body() -> None:
    built = find_method("AdminService.RunDbScript").route.build(
        admin_pb2.RunDbScriptRequest(script="purge-before", dry_run=True, args={"before": "2025-01-01"})
    )
    assert built.body == {"script": "purge-before", "dryRun": True, "args": {"before": "2025-01-01"}}
