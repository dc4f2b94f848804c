// Report tables: sorting and the five output formats, byte for byte.
#include <capplan/report/pareto.hpp>
#include <capplan/report/render.hpp>

#include <doctest/doctest.h>

using namespace capplan;

namespace {
Table sample() {
  Table t;
  t.title = "GPUs";
  t.columns = {{"gpu", "GPU", Align::left}, {"memory_bytes", "Memory", Align::right},
               {"price_usd", "Price", Align::right}};
  t.add_row({Cell::of_text("RTX 4090"), Cell::of_number("24 GB", 24e9), Cell::of_money("$1,599.00", "1599", 1599)});
  t.add_row({Cell::of_text("H100 SXM"), Cell::of_number("80 GB", 80e9), Cell::empty()});
  t.rows[1][0].flag = true;
  t.notes = {"Prices: example"};
  return t;
}
}  // namespace

TEST_SUITE("report") {
  TEST_CASE("aligned text table") {
    CHECK(render_text(sample()) ==
          "GPUs\n\n"
          "GPU        Memory      Price\n"
          "---------  ------  ---------\n"
          "RTX 4090    24 GB  $1,599.00\n"
          "H100 SXM*   80 GB          –\n"
          "\nPrices: example\n");
  }

  TEST_CASE("markdown, csv, json, html") {
    const Table t = sample();
    CHECK(render_markdown(t) ==
          "### GPUs\n\n| GPU | Memory | Price |\n|---|---:|---:|\n| RTX 4090 | 24 GB | $1,599.00 |\n"
          "| **H100 SXM** | 80 GB | – |\n\n- Prices: example\n");
    CHECK(render_csv(t) == "gpu,memory_bytes,price_usd\r\nRTX 4090,24000000000,1599\r\nH100 SXM,80000000000,–\r\n");
    CHECK(render_json(t) ==
          "{\n  \"title\": \"GPUs\",\n  \"rows\": [\n"
          "    {\"gpu\": \"RTX 4090\", \"memory_bytes\": 24000000000, \"price_usd\": \"1599\"},\n"
          "    {\"gpu\": \"H100 SXM\", \"memory_bytes\": 80000000000, \"price_usd\": null}\n"
          "  ],\n  \"notes\": [\"Prices: example\"]\n}\n");
    const std::string html = render_html(t);
    CHECK(html.find("<caption>GPUs</caption>") != std::string::npos);
    CHECK(html.find("<td><strong>H100 SXM</strong></td>") != std::string::npos);
  }

  TEST_CASE("escaping in machine formats") {
    Table t;
    t.columns = {{"name", "Name", Align::left}};
    t.add_row({Cell::of_text("a,\"b\"\n<c>")});
    CHECK(render_csv(t) == "name\r\n\"a,\"\"b\"\"\n<c>\"\r\n");
    CHECK(render_json(t).find("\"a,\\\"b\\\"\\n<c>\"") != std::string::npos);
    CHECK(render_html(t).find("a,&quot;b&quot;\n&lt;c&gt;") != std::string::npos);
  }

  TEST_CASE("sorting by any column; bad input named") {
    Table t = sample();
    t.sort_by("memory_bytes", true);
    CHECK(t.rows[0][0].text == "H100 SXM");
    t.sort_by("price_usd");
    CHECK(t.rows[0][0].text == "RTX 4090");  // valued cells first
    CHECK_THROWS_WITH(t.sort_by("speed"), "sort: \"speed\" is not a column (gpu, memory_bytes, price_usd)");
    CHECK_THROWS_AS(t.add_row({Cell::of_text("x")}), InputError);
    CHECK(parse_output_format("md") == OutputFormat::markdown);
    CHECK_THROWS_WITH(parse_output_format("pdf"), "format: \"pdf\" is not a format (table, markdown, csv, json, html)");
  }

  TEST_CASE("Pareto frontier of price, speed and memory") {
    Table t;
    t.columns = {{"gpu", "GPU", Align::left}, {"price_usd", "Price"}, {"time_s", "Time"}, {"memory_bytes", "Memory"}};
    auto row = [&](const char* n, double price, double time, double mem) {
      t.add_row({Cell::of_text(n), Cell::of_number("", price), Cell::of_number("", time), Cell::of_number("", mem)});
    };
    row("cheap", 1000, 100, 24e9);     // cheapest: on the frontier
    row("fast", 30000, 10, 80e9);      // fastest: on the frontier
    row("dominated", 2000, 120, 24e9); // worse than "cheap" on every objective
    row("big", 30000, 12, 141e9);      // most memory: on the frontier
    t.add_row({Cell::of_text("unknown"), Cell::empty(), Cell::of_number("", 1), Cell::of_number("", 1e12)});
    const std::vector<Objective> obj{{"price_usd", false}, {"time_s", false}, {"memory_bytes", true}};
    CHECK(pareto_frontier(t, obj) == std::vector<std::size_t>{0, 1, 3});
    mark_pareto(t, obj);
    CHECK(t.rows[0][0].flag);
    CHECK_FALSE(t.rows[2][0].flag);
    CHECK_FALSE(t.rows[4][0].flag);
  }
}
