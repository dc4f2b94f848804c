"""Report tables: rendering and pandas."""

import decimal
import json

import pytest

import capplan
from capplan import Cell, Column, Table


def sample():
    t = Table(title="GPUs", columns=[Column(key="gpu", header="GPU", align="left"),
                                     Column(key="memory_bytes", header="Memory"),
                                     Column(key="price_usd", header="Price")])
    t.add_row([Cell.of_text("A"), Cell.of_number("80 GB", 80e9), Cell.of_money("$25,000", "25000", 25000.0)])
    t.add_row([Cell.of_text("B"), Cell.of_number("24 GB", 24e9), Cell.empty()])
    return t


def test_render_formats():
    t = sample()
    assert "80 GB" in t.render() and "80 GB" in str(t)
    assert t.render("markdown").startswith("#") or "|" in t.render("markdown")
    rows = json.loads(t.render(capplan.OutputFormat.json))
    assert rows  # machine output parses
    assert "<table" in t._repr_html_()
    assert "memory_bytes" in t.render("csv").splitlines()[0]
    with pytest.raises(capplan.InputError, match="is not a format"):
        capplan.parse_output_format("yaml")


def test_text_width_is_the_command_lines():
    t = sample()
    t.notes = ["Sources: " + " ".join(f"word{i}" for i in range(40))]
    # str(t) is the CLI's text: wrapped at 100 columns; width=0 keeps the note on one line.
    assert str(t) == t.render() == capplan.render(t) == t.render("table", width=100)
    assert max(len(line) for line in str(t).splitlines()) <= 100
    assert len(t.render(width=0).splitlines()) < len(str(t).splitlines())
    assert max(len(line) for line in t.render(width=40).splitlines()) <= 40


def test_to_pandas_keeps_money_exact():
    df = sample().to_pandas()
    assert list(df.columns) == ["gpu", "memory_bytes", "price_usd"]
    assert df.loc[0, "price_usd"] == decimal.Decimal("25000")
    assert df.loc[0, "memory_bytes"] == 80e9
    assert df.loc[1, "price_usd"] is None
    assert df.attrs["title"] == "GPUs"
    text = sample().to_pandas(values=False)
    assert list(text.columns) == ["GPU", "Memory", "Price"]


def test_sort_and_pareto():
    t = sample()
    t.sort_by("memory_bytes")
    assert t.rows[0][0].text == "B"
    assert t.pareto_frontier([capplan.Objective(column="memory_bytes", maximize=True)]) == [1]
    with pytest.raises(capplan.InputError, match="is not a column"):
        t.sort_by("speed")
    with pytest.raises(capplan.InputError, match="does not match the table's 3 columns"):
        t.add_row([Cell.of_text("x")])


def test_svg_charts_and_the_html_page():
    months = Table(title="Cumulative cost by month",
                   columns=[Column(key="month", header="Month"), Column(key="owned_usd", header="Owned"),
                            Column(key="rented_usd", header="Rented")])
    for m in range(13):
        months.add_row([Cell.of_number(str(m), m), Cell.of_number("", 2200.0), Cell.of_number("", 300.0 * m)])
    line = capplan.line_chart_svg(months, "month", ["owned_usd", "rented_usd"], marker_x=8, marker_label="break-even: month 8")
    assert isinstance(line, capplan.Svg)
    assert line._repr_svg_().startswith("<svg") and str(line).count("<polyline class=\"series\"") == 2
    assert 'data-x="8"' in str(line)
    with pytest.raises(capplan.InputError, match="month2"):
        capplan.line_chart_svg(months, "month2", ["owned_usd"])
    t = sample()
    t.mark_pareto([capplan.Objective(column="memory_bytes", maximize=True)])
    scatter = capplan.scatter_svg(t, "memory_bytes", ["price_usd"], "gpu", log_x=True)
    assert str(scatter).count("<circle") == 1  # B has no price
    bar = capplan.bar_svg([("weights", 14e9), ("activations", 6e9)], capacity=24e9, label="rtx-4090")
    assert str(bar).count('<rect class="segment"') == 2 and 'class="capacity"' in str(bar)
    page = capplan.html_page("Report", [t, months], [line, scatter, bar], ["1 + 1 = 2"])
    assert page.startswith("<!DOCTYPE html>") and page.count("<svg") == 3 and page.count('<table class="capplan">') == 2
    assert "src=" not in page and "href=" not in page
    folded = capplan.html_page("Report", [t], [line], more_charts=[scatter, bar], more_title="Each row")
    assert folded.count("<svg") == 3 and '<details class="more">' in folded and "Each row (2)" in folded
