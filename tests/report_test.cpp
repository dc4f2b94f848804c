// Report tables: sorting and the five output formats, byte for byte.
#include <capplan/report/cost_chart.hpp>
#include <capplan/report/pareto.hpp>
#include <capplan/report/memory_output.hpp>
#include <capplan/report/power_output.hpp>
#include <capplan/report/render.hpp>
#include <capplan/report/catalog_output.hpp>
#include <capplan/report/money_value.hpp>
#include <capplan/report/value.hpp>
#include <capplan/detail/text.hpp>
#include <capplan/hardware/catalog.hpp>

#include "test_support.hpp"

#include <doctest/doctest.h>

#include <map>

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

  TEST_CASE("NamesByKey: one group per key in first-seen order, names joined by commas") {
    detail::NamesByKey g;
    CHECK(g.groups().empty());
    g.add("no public price", "b200");
    g.add("out of production", "v100-sxm2");
    g.add("no public price", "gb300");
    g.add("no public price", "mi355x");
    REQUIRE(g.groups().size() == 2);
    CHECK(g.groups()[0] == std::pair<std::string, std::string>{"no public price", "b200, gb300, mi355x"});
    CHECK(g.groups()[1] == std::pair<std::string, std::string>{"out of production", "v100-sxm2"});
  }

  TEST_CASE("lower_ascii, upper_ascii and name_key change ASCII letters only") {
    CHECK(detail::lower_ascii("RTX-4090 Ti") == "rtx-4090 ti");
    CHECK(detail::upper_ascii("gqa usd") == "GQA USD");
    // UTF-8 bytes pass through unchanged ("Ä" is not ASCII; "–" is three bytes).
    CHECK(detail::lower_ascii("\xC3\x84 \xE2\x80\x93 X") == "\xC3\x84 \xE2\x80\x93 x");
    CHECK(detail::name_key("H100 SXM-80_GB", " -_") == "h100sxm80gb");
    CHECK(detail::name_key("ViT-B/16", "-_ /") == "vitb16");
    CHECK(detail::name_key("Llama-3.1-8B", "-_ /") == "llama3.18b");  // dots stay
    CHECK(normalize_name("H100\tSXM") == "h100sxm");
  }

  TEST_CASE("text wraps at RenderOptions' width; 0 leaves lines as they are") {
    Table t = sample();
    t.columns.push_back({"how", "How", Align::left});
    t.rows[0].push_back(Cell::of_text("one two three four five six seven eight nine ten eleven twelve"));
    t.rows[1].push_back(Cell::of_text("short"));
    t.notes = {"Sources: alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu nu xi omicron pi"};
    // Widths count display columns: "–" (U+2013) is one column, three bytes.
    auto widest = [](const std::string& text) {
      std::size_t col = 0, w = 0;
      for (unsigned char ch : text) {
        if (ch == '\n') col = 0;
        else if ((ch & 0xC0) != 0x80) w = std::max(w, ++col);
      }
      return w;
    };
    const std::string wide = render_text(t, {.width = 0});
    CHECK(widest(wide) > 60);
    CHECK(wide.find("eleven twelve") != std::string::npos);  // the cell on one line
    const std::string narrow = render_text(t, {.width = 60});
    CHECK(widest(narrow) <= 60);
    // The last column continues on rows of its own; the note continues indented by two spaces.
    CHECK(narrow.find("\n  kappa lambda mu nu xi omicron pi\n") != std::string::npos);
    CHECK(narrow.find("  one two three four five six\n") != std::string::npos);
    CHECK(narrow.find("\n" + std::string(30, ' ') + "seven eight nine ten eleven\n" + std::string(30, ' ') + "twelve\n") !=
          std::string::npos);
    CHECK(narrow.find("RTX 4090    24 GB  $1,599.00  one two three") != std::string::npos);
    // The default is the command line's 100 columns: render() and render_text() agree.
    CHECK(render(t, OutputFormat::table) == render_text(t, {.width = 100}));
    CHECK(render_text(t) == render_text(t, RenderOptions{}));
  }

  TEST_CASE("Value: ordered keys, integers apart from floats, exact money, null until used") {
    Value v;
    CHECK(v.is_null());
    v["b"] = 8;
    v["a"] = 8.0;
    v["money"] = Value::Exact{"12.30"};
    v["none"] = Value::of(std::optional<double>{});
    v["b"] = 9;  // the same key again: replaced in place, order kept
    const auto& o = std::get<Value::Object>(v.data());
    REQUIRE(o.size() == 4);
    CHECK(o[0].first == "b");
    CHECK(std::get<std::int64_t>(o[0].second.data()) == 9);
    CHECK(std::get<double>(o[1].second.data()) == 8.0);
    CHECK(std::get<Value::Exact>(o[2].second.data()).decimal == "12.30");
    CHECK(o[3].second.is_null());
    Value list;
    list.push_back("x");
    list.push_back(true);
    CHECK(std::get<Value::Array>(list.data()).size() == 2);
    CHECK(std::holds_alternative<std::string>(std::get<Value::Array>(list.data())[0].data()));
    CHECK(std::holds_alternative<bool>(std::get<Value::Array>(list.data())[1].data()));
  }

  TEST_CASE("power_output: the system's power for programs, null where a figure does not exist") {
    const Catalog& cat = Catalog::builtin();
    const SystemPower p = system_power(cat.find_system("dgx-a100"), cat);
    const Value v = power_output(p, "dgx-a100");
    const auto& o = std::get<Value::Object>(v.data());
    REQUIRE(o.size() == 18);
    CHECK(o[0].first == "system");
    CHECK(std::get<std::string>(o[0].second.data()) == "dgx-a100");
    CHECK(std::get<std::int64_t>(o[1].second.data()) == p.nodes);
    CHECK(o[2].first == "parts");
    CHECK(std::get<Value::Array>(o[2].second.data()).size() == p.components.size());
    for (const auto& [key, value] : o) {
      CAPTURE(key);
      // The DGX A100 needs more than one PSU (no single recommended rating) and lists none.
      if (key == "psu_recommended_w") CHECK(value.is_null() == !p.psu.recommended_rating.has_value());
      if (key == "psu_installed_w") CHECK(value.is_null() == !p.installed_psu.has_value());
      if (key == "heat_w") CHECK(std::get<double>(value.data()) == p.heat.power.value());
      // NVIDIA's 6.5 kW maximum is above the parts' estimate: the circuit and the heat are planned by it.
      if (key == "vendor_max_power_w") CHECK(std::get<double>(value.data()) == 6500.0);
      if (key == "planning_power_w") CHECK(std::get<double>(value.data()) == 6500.0);
    }
    // A system without a stated maximum: null, and planning at the estimate.
    const SystemPower w = system_power(cat.find_system("ws-rtx-4090"), cat);
    const Value wv = power_output(w, "ws-rtx-4090");
    const auto& wo = std::get<Value::Object>(wv.data());
    for (const auto& [key, value] : wo) {
      if (key == "vendor_max_power_w") CHECK(value.is_null());
      if (key == "planning_power_w") CHECK(std::get<double>(value.data()) == w.wall_total().value());
    }
  }

  TEST_CASE("memory_fit_output: the budget and its fit, in the order capplan memory prints them") {
    MemoryBudget b;
    b.weights.size = DataSize::from_value(10e9);
    b.activations.size = DataSize::from_value(5e9);
    const FitResult fit = check_fit(b, DataSize::from_value(12e9));
    const Value v = memory_fit_output(b, fit);
    const auto& o = std::get<Value::Object>(v.data());
    std::vector<std::string> keys;
    for (const auto& kv : o) keys.push_back(kv.first);
    CHECK(keys == std::vector<std::string>{"memory_per_gpu_bytes", "breakdown", "gpu_memory_bytes", "fits", "tight",
                                           "headroom_bytes", "utilization"});
    CHECK(std::get<double>(o[0].second.data()) == 15e9);
    CHECK(std::get<bool>(o[3].second.data()) == false);
    CHECK(std::get<double>(o[5].second.data()) == -3e9);  // the shortfall
    const auto& breakdown = std::get<Value::Object>(o[1].second.data());
    CHECK(breakdown.size() == 6);
    CHECK(breakdown[0].first == "weights_bytes");
    CHECK(std::get<double>(breakdown[3].second.data()) == 5e9);
  }

  TEST_CASE("markdown, csv, json, html") {
    const Table t = sample();
    CHECK(render_markdown(t) ==
          "### GPUs\n\n| GPU | Memory | Price |\n|---|---:|---:|\n| RTX 4090 | 24 GB | $1,599.00 |\n"
          "| **H100 SXM** | 80 GB | – |\n\n- Prices: example\n");
    // An empty cell is null to a program: an empty CSV field (a "–" would turn a numeric column into text).
    CHECK(render_csv(t) == "gpu,memory_bytes,price_usd\r\nRTX 4090,24000000000,1599\r\nH100 SXM,80000000000,\r\n");
    CHECK(render_json(t) ==
          "{\n  \"title\": \"GPUs\",\n  \"rows\": [\n"
          "    {\"gpu\": \"RTX 4090\", \"memory_bytes\": 24000000000, \"price_usd\": \"1599\"},\n"
          "    {\"gpu\": \"H100 SXM\", \"memory_bytes\": 80000000000, \"price_usd\": null}\n"
          "  ],\n  \"notes\": [\"Prices: example\"]\n}\n");
    const std::string html = render_html(t);
    CHECK(html.find("<caption>GPUs</caption>") != std::string::npos);
    CHECK(html.find("<td><strong>H100 SXM</strong></td>") != std::string::npos);
  }

  TEST_CASE("one rule for a cell's machine value, in every machine format") {
    // machine_value (report/table.hpp): money exact, a number as the number, "–" or no text null, text.
    CHECK(std::get<Value::Exact>(machine_value(Cell::of_money("$1.10", "1.10", 1.1)).data()).decimal == "1.10");
    CHECK(std::get<double>(machine_value(Cell::of_number("24 GB", 24e9)).data()) == 24e9);
    CHECK(std::holds_alternative<std::nullptr_t>(machine_value(Cell::empty()).data()));
    CHECK(std::holds_alternative<std::nullptr_t>(machine_value(Cell::of_text("")).data()));
    CHECK(std::get<std::string>(machine_value(Cell::of_text("no price")).data()) == "no price");
    // render_json, render_csv and table_rows_output (catalog list's JSON) agree with it cell for cell.
    Table t;
    t.columns = {{"a", "A", Align::left}, {"b", "B", Align::right}, {"c", "C", Align::right}, {"d", "D", Align::left}};
    t.add_row({Cell::of_text(""), Cell::empty(), Cell::of_money("$2", "2.00", 2.0), Cell::of_text("x")});
    CHECK(render_csv(t) == "a,b,c,d\r\n,,2.00,x\r\n");
    CHECK(render_json(t).find("{\"a\": null, \"b\": null, \"c\": \"2.00\", \"d\": \"x\"}") != std::string::npos);
    const Value rows = table_rows_output(t);
    const auto& row = std::get<Value::Object>(std::get<Value::Array>(rows.data()).at(0).data());
    CHECK(std::holds_alternative<std::nullptr_t>(row[0].second.data()));  // was "" before the rule was shared
    CHECK(std::holds_alternative<std::nullptr_t>(row[1].second.data()));
    CHECK(std::get<Value::Exact>(row[2].second.data()).decimal == "2.00");
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

// Charts (report/chart.hpp) and the HTML report (report/html_page.hpp).
#include <capplan/report/chart.hpp>
#include <capplan/report/html_page.hpp>

namespace {
std::size_t count_of(const std::string& s, const std::string& what) {
  std::size_t n = 0;
  for (std::size_t at = s.find(what); at != std::string::npos; at = s.find(what, at + what.size())) ++n;
  return n;
}
}  // namespace

TEST_SUITE("report") {
  TEST_CASE("line chart: one polyline per series, the marker where asked, nothing outside the view box") {
    Table t;
    t.title = "Cumulative cost by month";
    t.columns = {{"month", "Month"}, {"owned_usd", "Owned"}, {"rented_usd", "Rented"}};
    for (int m = 0; m <= 12; ++m) t.add_row({Cell::of_number(std::to_string(m), m), Cell::of_number("", 2200), Cell::of_number("", 300.0 * m)});
    LineChart c = line_chart(t, "month", {"owned_usd", "rented_usd"});
    c.marker_x = 8;
    c.marker_label = "break-even: month 8";
    const std::string svg = render_svg(c);
    CHECK(svg.rfind("<svg xmlns=\"http://www.w3.org/2000/svg\"", 0) == 0);
    CHECK(count_of(svg, "<polyline class=\"series\"") == 2);
    CHECK(svg.find("data-series=\"Owned\"") != std::string::npos);
    CHECK(svg.find("<g class=\"marker\" data-x=\"8\">") != std::string::npos);
    CHECK(svg.find("break-even: month 8") != std::string::npos);
    CHECK(count_of(svg, "<svg") == 1);
    CHECK(count_of(svg, "</svg>") == 1);
    // No coordinate outside 0..640 x 0..360 (and no NaN printed).
    CHECK(svg.find("nan") == std::string::npos);
    CHECK(svg.find("inf") == std::string::npos);
    // A mismatched series is refused, naming it.
    LineChart bad;
    bad.series.push_back({"broken", {1, 2}, {1}});
    CHECK_THROWS_AS(render_svg(bad), InputError);
    // Nothing to draw: a picture that says so.
    CHECK(render_svg(LineChart{}).find("no values to draw") != std::string::npos);
  }

  TEST_CASE("cost chart: cumulative own and rent by month, resale as its own line, the break-even month marked") {
    using namespace capplan::literals;
    OwnedOption o;
    o.purchase = 2200_USD;
    o.active_power = 450_W;
    o.electricity = 0.12_USD / 1_kWh;
    CompareOptions co;
    co.utilization = 0.15;
    co.horizon_months = 24;
    const CostComparison c = compare_costs(o, RentedOption::on_demand("rented", 2.14_USD / 1_h), co);
    LineChart chart = cost_chart(c);
    REQUIRE(chart.series.size() == 2);
    CHECK(chart.series[0].name == "Owned");
    CHECK(chart.series[1].name == "Rented");
    CHECK(chart.series[0].y.front() == doctest::Approx(2200));
    CHECK(chart.series[1].y.back() == doctest::Approx(c.last().rented_cumulative.amount().to_double()));
    CHECK(chart.y_label == "Cumulative cost (USD)");
    REQUIRE(c.break_even_month);
    CHECK(chart.marker_x == static_cast<double>(*c.break_even_month));
    CHECK(render_svg(chart).find("break-even: month " + std::to_string(*c.break_even_month)) != std::string::npos);
    o.resale = Depreciation::straight_line(36, 600_USD);
    chart = cost_chart(compare_costs(o, RentedOption::on_demand("rented", 2.14_USD / 1_h), co));
    REQUIRE(chart.series.size() == 3);
    CHECK(chart.series[1].name == "Owned net of resale");
  }

  TEST_CASE("scatter: flagged rows are the frontier, log axes skip what they cannot show, text escaped") {
    Table t;
    t.title = "Options";
    t.columns = {{"option", "Option", Align::left}, {"time_s", "Time"}, {"own_cost_usd", "Own"}, {"rent_cost_usd", "Rent"}};
    t.add_row({Cell::of_text("a <fast>"), Cell::of_number("", 10), Cell::of_number("", 9000), Cell::empty()});
    t.add_row({Cell::of_text("b"), Cell::of_number("", 100), Cell::empty(), Cell::of_number("", 50)});
    t.add_row({Cell::of_text("c"), Cell::of_number("", 1000), Cell::of_number("", 100000), Cell::empty()});
    t.add_row({Cell::of_text("no time"), Cell::empty(), Cell::of_number("", 1), Cell::empty()});
    t.rows[0][0].flag = true;
    t.rows[1][0].flag = true;
    ScatterChart c = scatter_chart(t, "time_s", {"own_cost_usd", "rent_cost_usd"}, "option");
    REQUIRE(c.points.size() == 3);  // the row without a time is left out
    CHECK(c.points[1].y == 50);     // no own cost: the rent
    c.log_x = c.log_y = true;
    const std::string svg = render_svg(c);
    CHECK(count_of(svg, "<circle class=\"point pareto\"") == 2);
    CHECK(count_of(svg, "<circle class=\"point\"") == 1);
    CHECK(count_of(svg, "<polyline class=\"frontier\"") == 1);
    CHECK(svg.find("a &lt;fast&gt;") != std::string::npos);
    CHECK(svg.find("<fast>") == std::string::npos);
    c.points.push_back({-1, 5, "negative", false, ""});  // not drawable on a log axis
    CHECK(count_of(render_svg(c), "<circle class=\"point") == 3);
    // Each point says which price it shows (own, else rent), with a legend entry per kind.
    CHECK(c.points[0].group == "Own");
    CHECK(c.points[1].group == "Rent");
    CHECK(svg.find(">Rent</text>") != std::string::npos);
  }

  TEST_CASE("bars: segments stack to the total, the capacity drawn") {
    BarChart c;
    c.title = "Memory";
    c.unit = "GB";
    c.unit_scale = 1e9;
    c.bars.push_back({"h100-sxm", {{"weights", 14e9}, {"optimizer states", 56e9}, {"activations", 6e9}}, 85.52e9});
    const std::string svg = render_svg(c);
    CHECK(count_of(svg, "<rect class=\"segment\"") == 3);
    CHECK(count_of(svg, "<line class=\"capacity\"") == 1);
    CHECK(svg.find("weights: 14 GB") != std::string::npos);
  }

  TEST_CASE("HTML report: one self-contained page, sortable columns, Pareto rows marked, notes, no network") {
    HtmlReport r;
    r.title = "A <report>";
    r.tables = {sample()};
    r.charts = {render_svg(LineChart{})};
    r.explanation = {"1 + 1 = 2"};
    const std::string html = render_html_page(r);
    CHECK(html.rfind("<!DOCTYPE html>", 0) == 0);
    CHECK(html.find("<title>A &lt;report&gt;</title>") != std::string::npos);
    CHECK(html.find("<th scope=\"col\" data-key=\"memory_bytes\" class=\"num\">Memory</th>") != std::string::npos);
    CHECK(html.find("data-v=\"24000000000\"") != std::string::npos);
    CHECK(html.find("<tr class=\"pareto\">") != std::string::npos);
    CHECK(html.find("<li>Prices: example</li>") != std::string::npos);
    CHECK(html.find("<pre class=\"explain\">1 + 1 = 2") != std::string::npos);
    CHECK(html.find("<section class=\"charts\">") != std::string::npos);
    // Nothing is fetched: no src= or href= to anything, and a policy that forbids it.
    CHECK(html.find("src=") == std::string::npos);
    CHECK(html.find("href=") == std::string::npos);
    CHECK(html.find("default-src 'none'") != std::string::npos);
    CHECK(html.find("@media print") != std::string::npos);
    CHECK(html.find("</html>") != std::string::npos);
    CHECK(html.find("<details class=\"more\">") == std::string::npos);
    // Further charts fold after the tables, counted in their summary.
    r.more_charts = {render_svg(LineChart{}), render_svg(LineChart{})};
    r.more_title = "Every other row";
    const std::string more = render_html_page(r);
    const auto folded = more.find("<details class=\"more\">\n<summary>Every other row (2)</summary>");
    REQUIRE(folded != std::string::npos);
    CHECK(folded > more.find("</table>"));
    CHECK(count_of(more, "<svg") == 3);
  }
}

// The purchase table over the built-in catalog: it times each option with the same functions as
// `capplan train` (best_training_run) and `capplan infer` (serving_run), sizes GPUs for a
// deadline, counts host power, and never shows a missing price as zero.
#include <capplan/hardware/builtin_catalog.hpp>
#include <capplan/hardware/catalog.hpp>
#include <capplan/hardware/gpu_slots.hpp>
#include <capplan/hardware/host_memory.hpp>
#include <capplan/plan/purchase.hpp>
#include <capplan/workload/image_model.hpp>
#include <capplan/workload/presets.hpp>

#include <algorithm>
#include <cmath>
#include <initializer_list>

namespace {
PurchaseQuery train_query(const char* model, double tokens) {
  PurchaseQuery q;
  q.model = find_model(model).transformer();
  q.model_name = model;
  q.model_source = "test";
  q.tokens = tokens;
  return q;
}
// Serving `model` in `weights` on the catalog's GPU rows alone (no systems, no cloud offers).
PurchaseQuery gpu_rows_serving(const char* model, const WeightFormat& weights) {
  PurchaseQuery q;
  q.model = find_model(model).transformer();
  q.model_name = model;
  q.workload = PurchaseWorkload::serve;
  q.serving.weights = weights;
  q.filters.systems = q.filters.cloud = false;
  return q;
}
// A catalog of one GPU, for the tests whose plan searches need only that one.
Catalog one_gpu_catalog(const char* id) {
  Catalog c;
  c.add_or_replace(Catalog::builtin().find_gpu(id));
  return c;
}
// A catalog of the given cloud offers and their GPUs, for the tests about those offers alone (a
// deadline search over every built-in offer takes seconds under the sanitizers).
Catalog offers_catalog(std::initializer_list<const char*> ids) {
  const Catalog& b = Catalog::builtin();
  Catalog c;
  for (const char* id : ids) {
    const CloudOffer& o = b.find_offer(id);
    c.add_or_replace(b.find_gpu(o.gpu_id));
    c.add_or_replace(o);
  }
  return c;
}
// Llama 2 7B on 200B tokens within 3 days, GPU rows only.
PurchaseQuery gpu_deadline_query() {
  PurchaseQuery q = train_query("llama2-7b", 2e11);
  q.filters.gpus = true;
  q.filters.systems = q.filters.cloud = false;
  q.filters.deadline = Duration::from_value(3 * 86400.0);
  return q;
}
// The built-in catalog with a copy of the H100 SXM as "my-card", which no built-in offer rents: the
// rent tests add their own offers for it.
Catalog catalog_with_my_card() {
  Catalog c = Catalog::make_builtin();
  GpuSpec mine = c.find_gpu("h100-sxm");
  mine.id = "my-card";
  mine.name = "My Card";
  mine.aliases = {};
  c.add_or_replace(mine);
  return c;
}
const PurchaseRow& row_of(const PurchaseTable& t, const std::string& option) {
  for (const auto& r : t.rows) {
    if (r.option == option) return r;
  }
  FAIL("no row " << option);
  return t.rows.front();
}
}  // namespace

TEST_SUITE("report") {
  TEST_CASE("purchase table: training rows agree with best_training_run (capplan train)") {
    PurchaseQuery q = train_query("llama2-7b", 1e9);
    q.filters.vendor = Vendor::nvidia;
    q.filters.form_factor = FormFactor::sxm;
    const Catalog& c = Catalog::builtin();
    const PurchaseTable t = purchase_table(q, c);
    const TransformerShape shape = find_model("llama2-7b").transformer();
    for (const char* id : {"h100-sxm", "dgx-h100", "a100-sxm-80gb"}) {
      CAPTURE(id);
      const PurchaseRow& r = row_of(t, id);
      REQUIRE(r.estimated());
      const GpuSpec& g = *r.gpu;
      TrainingSetup s;
      s.gpus_per_node = 8;
      const TrainingRunSearch best = best_training_run(shape, g, r.gpus, s);
      REQUIRE(best.run);
      CHECK(r.time.value() == doctest::Approx(best.run->time_for_tokens(1e9).value()).epsilon(1e-12));
      CHECK(r.training->plan.gpus() == r.gpus);
      // The fewest whole units that fit: one fewer unit has no plan that fits (an SXM module's unit is
      // its baseboard, 4 here, which a 7B model fits on).
      if (r.kind == OptionKind::gpu && r.gpus > r.unit_gpus) CHECK_FALSE(best_training_run(shape, g, r.gpus - r.unit_gpus, s).run);
      if (r.kind == OptionKind::gpu) CHECK(r.gpus == r.unit_gpus * r.units);
    }
    // A DGX H100 is 8 H100 SXM in one node: the same run as 8 loose H100 SXM.
    TrainingSetup s;
    const auto eight = best_training_run(shape, c.find_gpu("h100-sxm"), 8, s);
    REQUIRE(eight.run);
    CHECK(row_of(t, "dgx-h100").time.value() == doctest::Approx(eight.run->time_for_tokens(1e9).value()));
    CHECK(row_of(t, "dgx-h100").gpus == 8);
  }

  TEST_CASE("default global batch: about 4M tokens up to a multiple of the GPUs; beyond twice that, flagged") {
    // 4,096-token sequences: B = 1,024.
    CHECK(default_batch_sequences(4096) == 1024);
    CHECK(default_batch_sequences(8 * 1024 * 1024) == 1);
    CHECK(default_global_batch(4096, 8) == 1024);
    CHECK(default_global_batch(4096, 600) == 1200);
    CHECK(default_global_batch(4096, 1024) == 1024);
    CHECK(default_global_batch(4096, 16384) == 16384);
    CHECK_FALSE(default_batch_oversized(4096, 1024));
    CHECK_FALSE(default_batch_oversized(4096, 1500));  // 1,500 sequences: under twice 1,024
    CHECK(default_batch_oversized(4096, 2048));
    CHECK(default_batch_oversized(4096, 40278));
    CHECK(test_support::field_of([] { (void)default_global_batch(0, 8); }) == "seq_len");
    CHECK(test_support::field_of([] { (void)default_global_batch(4096, 0); }) == "gpus");
    // Kept by model-parallel replicas: a multiple of the largest divisor of the GPUs at most 1,024.
    CHECK(model_parallel_batch(4096, 8) == 1024);
    CHECK(model_parallel_batch(4096, 600) == 1200);  // 600 itself
    CHECK(model_parallel_batch(4096, 2048) == 1024);
    CHECK(model_parallel_batch(4096, 16384) == 1024);
    CHECK(model_parallel_batch(4096, 4032) == 2016);  // d = 1,008
    CHECK(model_parallel_batch(4096, 2 * 1031) == 1024);  // 1,031 is prime: d = 2
    CHECK(model_parallel_batch(4096, 65536) == 1024);
    CHECK(model_parallel_batch(8 * 1024 * 1024, 256) == 1);  // sequences longer than 4M tokens: one
    CHECK(test_support::field_of([] { (void)model_parallel_batch(4096, 0); }) == "gpus");
    CHECK(test_support::field_of([] { (void)model_parallel_batch(0, 8); }) == "seq_len");
    // best_training_run's job takes it.
    TrainingSetup s;
    auto [job, cluster] = training_job(find_model("llama2-7b").transformer(), Catalog::builtin().find_gpu("h100-sxm"), 2048, s);
    CHECK(job.global_batch == 2048);
    // The purchase table names the rows whose default batch grew past twice 4M tokens.
    // Llama 2 7B on 20B tokens in 2 hours on L4 instances takes thousands of GPUs.
    PurchaseQuery q = train_query("llama2-7b", 2e10);
    q.filters.deadline = Duration::from_value(2 * 3600);
    q.filters.gpus = q.filters.systems = false;
    const PurchaseTable t = purchase_table(q, offers_catalog({"gcp-g2-standard-96"}));
    const PurchaseRow& r = row_of(t, "gcp-g2-standard-96");
    REQUIRE(r.training);
    CHECK(r.training->job.global_batch >= 2048);
    const auto batch = std::find_if(t.assumptions.begin(), t.assumptions.end(), [](const std::string& n) { return n.rfind("BATCH: ", 0) == 0; });
    REQUIRE(batch != t.assumptions.end());
    CHECK(batch->find("gcp-g2-standard-96 (" + std::to_string(r.training->job.global_batch) + ")") != std::string::npos);
    // Each named row's kept batch: the same GPUs at the batch model-parallel replicas keep under twice
    // ~4M tokens, the plan search's best at it, timed for the same tokens and held to the deadline.
    CHECK(r.kept_batch == model_parallel_batch(r.training->job.seq_len, r.gpus));
    CHECK(r.kept_batch < r.training->job.global_batch);
    REQUIRE(r.kept_batch_run);
    CHECK(r.kept_batch_plans > 0);
    // on the row's nodes and network
    CHECK(r.kept_batch_run->cluster.gpus_per_node == r.training->cluster.gpus_per_node);
    CHECK(network_timed(r.kept_batch_run->cluster).value() == doctest::Approx(network_timed(r.training->cluster).value()));
    CHECK(r.kept_batch_run->job.global_batch == r.kept_batch);
    CHECK(r.kept_batch_run->gpus() == r.gpus);
    CHECK(r.kept_batch_time.value() == doctest::Approx(r.kept_batch_run->time_for_tokens(2e10).value()));
    const GoodputEstimate kept_run = estimate_goodput(r.kept_batch_time, r.gpus, checkpoint_size(static_cast<std::int64_t>(parameter_count(q.model))),
                                                      q.goodput, r.kept_batch_run->estimate.iteration);
    CHECK(r.kept_batch_late == (kept_run.expected_wall_clock.value() > 2 * 3600));
    CHECK(batch->find("gcp-g2-standard-96: " + std::to_string(r.kept_batch) + " sequences (") != std::string::npos);
    CHECK(batch->find("M tokens, --global-batch " + std::to_string(r.kept_batch) + "), ") != std::string::npos);
    CHECK(batch->find(plan_text(r.kept_batch_run->plan) + ", " + format(r.kept_batch_time, {.significant = 3}) + " of iterations against " +
                      format(r.time, {.significant = 3})) != std::string::npos);
    CHECK((batch->find("past the deadline") != std::string::npos) == r.kept_batch_late);
    // With --global-batch, or on fewer GPUs, no such note.
    q.training.global_batch = 4096;
    const PurchaseTable given = purchase_table(q, offers_catalog({"gcp-g2-standard-96"}));
    CHECK(std::none_of(given.assumptions.begin(), given.assumptions.end(), [](const std::string& n) { return n.rfind("BATCH: ", 0) == 0; }));
    CHECK(row_of(given, "gcp-g2-standard-96").kept_batch == 0);
    CHECK_FALSE(row_of(given, "gcp-g2-standard-96").kept_batch_run);
  }

  TEST_CASE("deadline: counts that factor badly for a given batch do not push the answer far past it") {
    // A global batch of 1,024 sequences: 240 H100 (PP 15 x DP 16) is slow, and the probing stepped
    // from there toward 65,536 GPUs, where 256 finish 20B tokens of Llama 2 7B within 2 hours.
    TrainingSetup s;
    s.global_batch = 1024;
    TrainingRunCache runs(find_model("llama2-7b").transformer(), s);
    const GpuSpec& h100 = Catalog::builtin().find_gpu("h100-sxm");
    const Duration two_hours = Duration::from_value(7200);
    const std::optional<int> n = runs.fewest_gpus_for_deadline(h100, 2e10, two_hours, 1, 8, 1);
    REQUIRE(n);
    CHECK(*n <= 256);
    const auto& at = runs.best(h100, *n, 8);
    REQUIRE(at.run);
    CHECK(at.run->time_for_tokens(2e10).value() <= 7200);
  }

  TEST_CASE("purchase table: a system's GPUs are timed on the links its parts give them (2 x RTX 4090 at x8/x8)") {
    PurchaseQuery q = train_query("llama3.2-1b", 1e9);
    q.training.seq_len = 8192;  // as capplan compare sets it: too long for one card, two hold it
    q.filters.gpus = false;
    q.filters.cloud = false;
    const Catalog& c = Catalog::builtin();
    const PurchaseTable t = purchase_table(q, c);
    const PurchaseRow& r = row_of(t, "ws-2x-rtx-4090");
    CAPTURE(r.status);
    REQUIRE(r.estimated());
    REQUIRE(r.training);
    // The Ryzen 9 7950X's 20 free lanes run the two cards at PCIe 4.0 x8 each, the catalog's GPU at x16.
    CHECK(r.training->cluster.gpu.pcie_lanes == 8);
    CHECK(r.gpu->pcie_lanes == 16);
    // The same run as capplan train on the card in those slots, on the system's host memory.
    TrainingSetup s;
    s.gpus_per_node = 2;
    s.seq_len = 8192;
    s.host_memory_bandwidth = host_memory(c.find_system("ws-2x-rtx-4090"), c).bandwidth.value();
    const GpuSlots slots = gpu_slots(c.find_system("ws-2x-rtx-4090"), c);
    const TrainingRunSearch x8 = best_training_run(q.model, slots.apply(c.find_gpu("rtx-4090")), r.gpus, s);
    const TrainingRunSearch x16 = best_training_run(q.model, c.find_gpu("rtx-4090"), r.gpus, s);
    REQUIRE(x8.run);
    REQUIRE(x16.run);
    CHECK(r.time.value() == doctest::Approx(x8.run->time_for_tokens(1e9).value()).epsilon(1e-12));
    CHECK(r.gpus == 2);
    CHECK(x8.run->time_for_tokens(1e9).value() > x16.run->time_for_tokens(1e9).value());
    // The notes say so.
    bool said = false;
    for (const std::string& n : t.assumptions) said = said || n.find("ws-2x-rtx-4090's GPU links, from its parts, as timed: PCIe 4.0 x8 each") == 0;
    CHECK(said);
    // A one-card workstation keeps x16 and gets no such note.
    for (const std::string& n : t.assumptions) CHECK(n.find("ws-rtx-4090's GPU links") == std::string::npos);
  }

  TEST_CASE("purchase table: cloud rows cross instances over the network their provider publishes") {
    PurchaseQuery q = train_query("llama2-7b", 1e9);
    q.filters.gpus = false;
    q.filters.systems = false;
    const Catalog c = offers_catalog({"gcp-a2-highgpu-1g", "aws-p4d.24xlarge", "azure-nd96asr-v4"});
    const PurchaseTable t = purchase_table(q, c);
    CHECK(t.rows.size() == 3);
    // A 1-GPU A100 40GB slice records no network between instances: a 7B model needs more than one GPU.
    CHECK(row_of(t, "gcp-a2-highgpu-1g").status == "no network");
    // p4d.24xlarge is timed on its own 4 x 100 Gb/s EFA where a run crosses instances.
    const PurchaseRow& p4d = row_of(t, "aws-p4d.24xlarge");
    REQUIRE(p4d.training);
    CHECK(p4d.training->fabric.id == "aws-p4d.24xlarge");
    // A deadline that needs more than one instance: p4d's 50 Gb/s a GPU against Azure's 200 of the same A100s.
    q.filters.deadline = Duration::from_value(2 * 3600.0);
    q.tokens = 2e10;
    const PurchaseTable d = purchase_table(q, c);
    const PurchaseRow& aws = row_of(d, "aws-p4d.24xlarge");
    const PurchaseRow& azure = row_of(d, "azure-nd96asr-v4");
    REQUIRE(aws.training);
    REQUIRE(azure.training);
    CHECK(aws.training->cluster.inter.bandwidth.value() == doctest::Approx(50e9 / 8));
    CHECK(azure.training->cluster.inter.bandwidth.value() == doctest::Approx(200e9 / 8));
    CHECK(aws.gpus >= azure.gpus);
    bool said = false;
    for (const std::string& n : t.assumptions) said = said || n.find("a cloud offer's network between its instances") != std::string::npos;
    CHECK(said);
  }

  TEST_CASE("purchase table: a power cap is checked against a system's stated maximum, energy against its parts") {
    // A DGX B200's parts draw about 10.9 kW at the wall; NVIDIA states 14.3 kW. A 12 kW cap keeps the
    // parts' estimate under it but not the system: the row is filtered out.
    PurchaseQuery q = train_query("llama2-7b", 1e9);
    q.filters.gpus = false;
    q.filters.cloud = false;
    const Catalog& c = Catalog::builtin();
    const PurchaseTable all = purchase_table(q, c);
    const PurchaseRow& dgx = row_of(all, "dgx-b200");
    CHECK(dgx.power.total.value() < 12e3);
    CHECK(dgx.power.planning.value() == doctest::Approx(14.3e3 * dgx.units));
    CHECK(dgx.power.basis.find("the vendor's maximum") != std::string::npos);
    q.filters.max_power = Power::from_value(12e3);
    const PurchaseTable capped = purchase_table(q, c);
    CHECK(std::none_of(capped.rows.begin(), capped.rows.end(), [](const PurchaseRow& r) { return r.option == "dgx-b200"; }));
  }

  TEST_CASE("purchase table: a row without a price says why, where the catalog knows (GpuSpec::unpriced)") {
    PurchaseQuery q = train_query("llama2-7b", 1e9);
    q.filters.vendor = Vendor::nvidia;
    q.filters.cloud = false;
    q.filters.systems = false;
    const PurchaseTable t = purchase_table(q, Catalog::builtin());
    const PurchaseRow& gb300 = row_of(t, "gb300");
    CHECK_FALSE(gb300.purchase.has_value());
    CHECK(gb300.explanation.find("no price: sold only inside GB300 NVL72 racks") != std::string::npos);
    // One note per reason, naming its rows; none for a priced row.
    const std::vector<std::string>& notes = t.assumptions;
    const auto note_with = [&](std::string_view text) {
      return std::find_if(notes.begin(), notes.end(), [&](const std::string& n) { return n.find(text) != std::string::npos; });
    };
    REQUIRE(note_with("No price for gb300: sold only inside GB300 NVL72 racks") != notes.end());
    CHECK(note_with("No price for mi3") == notes.end());  // vendor nvidia only
    CHECK(note_with("rtx-4090:") == notes.end());
    CHECK(t.table().notes.size() == notes.size());
    // JSON: the reason beside price_missing; null for a priced row.
    Value out = t.output();
    int keyed = 0;
    for (Value e : std::get<Value::Array>(out["rows"].data())) {
      const std::string id = std::get<std::string>(e["option"].data());
      if (id == "gb300") {
        ++keyed;
        CHECK(std::get<std::string>(e["unpriced"].data()).rfind("sold only inside GB300 NVL72 racks", 0) == 0);
      } else if (id == "rtx-4090") {
        ++keyed;
        CHECK(std::holds_alternative<std::nullptr_t>(e["unpriced"].data()));
      }
    }
    CHECK(keyed == 2);
    const PurchaseRow& r4090 = row_of(t, "rtx-4090");
    REQUIRE(r4090.purchase.has_value());
    CHECK(r4090.explanation.find("no price") == std::string::npos);
  }

  TEST_CASE("purchase table: image-model rows agree with estimate_image_training (capplan train --model resnet50)") {
    PurchaseQuery q;
    q.workload = PurchaseWorkload::train_images;
    q.image_model = *find_image_model("resnet50");
    q.model_name = "resnet50";
    q.images = 90.0 * imagenet_1k_train_images;
    const Catalog& c = Catalog::builtin();
    const PurchaseTable t = purchase_table(q, c);
    for (const char* id : {"h100-sxm", "rtx-4090", "dgx-a100"}) {
      CAPTURE(id);
      const PurchaseRow& r = row_of(t, id);
      REQUIRE(r.estimated());
      REQUIRE(r.image);
      const int per_node = std::min(r.gpus, r.kind == OptionKind::system ? 8 : r.gpus);
      perf::DataPipeline host;
      host.cpu_cores = 16 * r.gpus;
      const perf::Cluster cl = perf::make_cluster(*r.gpu, r.gpus, per_node, perf::Link{});
      const perf::ImageTrainingEstimate e = perf::estimate_image_training(*q.image_model, 256, cl, Precision::bf16, {}, true, host);
      CHECK(r.batch_per_gpu == 256);
      CHECK(r.time.value() == doctest::Approx(q.images / e.images_per_second).epsilon(1e-12));
    }
    CHECK(t.flops_total == doctest::Approx(3 * 8.178e9 * q.images).epsilon(1e-3));
    // A card whose memory holds fewer images runs the most that fit, and says so.
    q.batch_per_gpu = 4096;
    const Catalog rtx3060 = one_gpu_catalog("rtx-3060-12gb");  // the rows point into it
    const PurchaseTable big = purchase_table(q, rtx3060);
    const PurchaseRow& small = row_of(big, "rtx-3060-12gb");
    REQUIRE(small.estimated());
    CHECK(small.batch_per_gpu == image_max_batch(*q.image_model, c.find_gpu("rtx-3060-12gb").capacity(), Precision::bf16));
    CHECK(small.explanation.find("the most that fit") != std::string::npos);
    // A deadline raises the GPUs; the row finishes in time.
    q.batch_per_gpu = 256;
    q.filters.deadline = Duration::from_value(3600.0);
    q.cpu_cores_per_gpu = 64;
    const Catalog h100 = one_gpu_catalog("h100-sxm");
    const PurchaseTable fast = purchase_table(q, h100);
    const PurchaseRow& h = row_of(fast, "h100-sxm");
    REQUIRE(h.estimated());
    CHECK(h.deadline_sized);
    CHECK(h.time.value() <= 3600.0);
    // The whole run: checkpoints of the fp32 weights and SGD momentum (8 B per parameter), failures at
    // Llama 3's rate; the deadline holds the expected wall clock, as energy and rent are billed over it.
    REQUIRE(h.goodput);
    REQUIRE(h.image);
    const GoodputEstimate hg = estimate_goodput(h.time, h.gpus, image_checkpoint_size(*q.image_model), q.goodput, h.image->iteration);
    CHECK(h.goodput->interval_iterations >= 1);
    CHECK(h.goodput->expected_wall_clock.value() == doctest::Approx(hg.expected_wall_clock.value()).epsilon(1e-12));
    CHECK(h.goodput->checkpoint.value() == doctest::Approx(8.0 * q.image_model->parameters));
    CHECK(h.goodput->expected_wall_clock.value() <= 3600.0);
    CHECK(h.goodput->expected_wall_clock > h.time);
    CHECK(h.energy.value() == doctest::Approx((h.power.total * h.goodput->expected_wall_clock * q.pue).value()).epsilon(1e-12));
    // Failures ten thousand times as frequent as Llama 3's: the iterations alone would make the
    // deadline on fewer GPUs than the wall clock does; the row takes the fewest whose wall clock is in time.
    PurchaseQuery flaky = q;
    flaky.goodput.failures_per_gpu_hour = 0.2;
    flaky.goodput.restart = Duration::from_value(120.0);
    const PurchaseTable slow = purchase_table(flaky, h100);
    const PurchaseRow& fh = row_of(slow, "h100-sxm");
    REQUIRE(fh.estimated());
    REQUIRE(fh.goodput);
    CHECK(fh.goodput->expected_wall_clock.value() <= 3600.0);
    CHECK(fh.gpus > h.gpus);
    {
      // One node fewer is late on its wall clock, though its iterations are in time.
      const int fewer = fh.gpus - 8;
      REQUIRE(fewer >= h.gpus);
      perf::DataPipeline host;
      host.cpu_cores = 64 * fewer;
      host.samples_per_core_second = q.decode_rate;
      host.drives = fewer / 8;
      const perf::Cluster cl = perf::make_cluster(*fh.gpu, fewer, 8, perf::usual_fabric(*fh.gpu).link(8));
      const perf::ImageTrainingEstimate e = perf::estimate_image_training(*q.image_model, 256, cl, Precision::bf16, {}, true, host);
      CHECK(e.time_for_images(q.images).value() <= 3600.0);
      const auto late = [&] {
        try {
          return estimate_goodput(e.time_for_images(q.images), fewer, image_checkpoint_size(*q.image_model), flaky.goodput, e.iteration)
                     .expected_wall_clock.value() > 3600.0;
        } catch (const InputError&) {
          return true;  // never finishes
        }
      }();
      CHECK(late);
    }
    // A bad whole-run config is an error naming its field, not "no finish" on every row.
    PurchaseQuery bad_goodput = q;
    bad_goodput.goodput.restart = Duration::from_value(-1.0);
    CHECK(test_support::field_of([&] { (void)purchase_table(bad_goodput, h100); }) == "restart");
    // The image workload needs the image model; its flags are checked.
    PurchaseQuery bad = q;
    bad.image_model.reset();
    CHECK(test_support::field_of([&] { (void)purchase_table(bad, h100); }) == "image_model");
    bad = q;
    bad.training.precision = Precision::fp8;
    CHECK(test_support::field_of([&] { (void)purchase_table(bad, h100); }) == "precision");
  }

  TEST_CASE("purchase table: image serving rows agree with estimate_image_inference (capplan infer --model sd15-unet)") {
    PurchaseQuery q;
    q.workload = PurchaseWorkload::serve_images;
    q.image_model = *find_image_model("sd15-unet");
    q.model_name = "sd15-unet";
    q.image_batch = 4;
    q.steps = 30;
    const Catalog& c = Catalog::builtin();
    const PurchaseTable t = purchase_table(q, c);
    CHECK(t.serve());
    CHECK(t.serves_images());
    for (const char* id : {"rtx-4090", "h100-sxm", "dgx-h100"}) {
      CAPTURE(id);
      const PurchaseRow& r = row_of(t, id);
      REQUIRE(r.estimated());
      REQUIRE(r.image_inference);
      // A step is the UNet on 8 latents (4 images under classifier-free guidance); each GPU serves its own batches.
      const perf::ImageInferenceEstimate e = perf::estimate_image_inference(*q.image_model, 8, *r.gpu, Precision::fp16);
      CHECK(r.image_inference->latency.value() == doctest::Approx(e.latency.value()));
      // Then the VAE decoder once over the 4 latents, at fp16 for SD 1.5.
      const perf::ImageInferenceEstimate d = perf::estimate_image_inference(q.image_model->decoder.front(), 4, *r.gpu, Precision::fp16);
      // And before the steps, the CLIP text encoder over the 8 prompts (4 of them negative), once.
      const perf::ImageInferenceEstimate text = perf::estimate_image_inference(q.image_model->text_encoders.front(), 8, *r.gpu, Precision::fp16);
      CHECK(r.text_encode_s == doctest::Approx(text.latency.value()));
      const double batch = text.latency.value() + 30 * e.latency.value() + d.latency.value();
      CHECK(r.seconds_per_batch == doctest::Approx(batch));
      CHECK(r.images_per_s == doctest::Approx(4.0 / batch * r.gpus));
      CHECK(r.replicas == r.gpus);
      // The decode and the memory are the ones infer shows (image_generation_memory).
      REQUIRE(r.image_decode);
      CHECK(r.image_decode->latency.value() == doctest::Approx(d.latency.value()));
      CHECK(r.image_memory == image_generation_memory(*q.image_model, 4, 8, Precision::fp16, Precision::fp16).total());
      // A day of use, and rent per thousand images where an offer is in USD.
      CHECK(r.energy.value() == doctest::Approx(r.power.total.value() * 86400.0));
      if (r.rent_rate) {
        const double per_h = (*r.rent_rate * Duration::from_value(3600)).amount().to_double();
        CHECK(*r.rent_usd_per_kimage == doctest::Approx(per_h / (r.images_per_s * 3600) * 1000));
      }
    }
    CHECK(row_of(t, "dgx-h100").gpus == 8);
    // Without guidance a step runs one latent per image: faster per image.
    q.guidance = false;
    const Catalog rtx4090 = one_gpu_catalog("rtx-4090");  // the rows point into it
    CHECK(row_of(purchase_table(q, rtx4090), "rtx-4090").images_per_s > 1.5 * row_of(t, "rtx-4090").images_per_s);
    // The default ranking is by rent per thousand images; the table has the image columns.
    CHECK(t.default_sort() == "rent_usd_per_kimage");
    const Table tab = t.table();
    CHECK(tab.column_index("images_per_h") < tab.columns.size());
    Value j = t.output();
    CHECK(std::get<std::string>(j["workload"].data()) == "serve_images");
    CHECK(std::get<std::int64_t>(j["batch"].data()) == 4);
    const auto at = [](const Value& v, std::string_view key) -> const Value& {
      for (const auto& [k, e] : std::get<Value::Object>(v.data()))
        if (k == key) return e;
      throw std::runtime_error("no member " + std::string(key));
    };
    int seen = 0;
    for (const Value& row : std::get<Value::Array>(j["rows"].data())) {
      if (std::get<std::string>(at(row, "option").data()) != "rtx-4090") continue;
      const PurchaseRow& r = row_of(t, "rtx-4090");
      CHECK(std::get<double>(at(at(row, "plan"), "vae_decode_s").data()) == r.image_decode->latency.value());
      CHECK(std::get<double>(at(at(row, "plan"), "memory_per_gpu_bytes").data()) == r.image_memory.value());
      ++seen;
    }
    CHECK(seen == 1);
    // A GPU whose memory cannot hold the weights is "no fit"; bad fields are named.
    q.image_model = *find_image_model("sdxl-unet");
    q.image_precision = Precision::fp32;  // 10.3 GB of weights
    const Catalog rtx4060 = one_gpu_catalog("rtx-4060-ti-8gb");
    CHECK(row_of(purchase_table(q, rtx4060), "rtx-4060-ti-8gb").status == "no fit");
    PurchaseQuery bad = q;
    bad.steps = 0;
    CHECK(test_support::field_of([&] { (void)purchase_table(bad, rtx4060); }) == "steps");
    bad = q;
    bad.image_precision = Precision::fp4;
    CHECK(test_support::field_of([&] { (void)purchase_table(bad, rtx4060); }) == "image_precision");
    bad = q;
    bad.image_model.reset();
    CHECK(test_support::field_of([&] { (void)purchase_table(bad, rtx4060); }) == "image_model");
  }

  TEST_CASE("purchase table: a tiled or sliced VAE decode reaches the fit and the time (compare --serve --vae-tiling)") {
    UNetConfig c = *find_unet_config("sd15-unet");
    c.latent_side = 192;  // 1536 x 1536
    PurchaseQuery q;
    q.workload = PurchaseWorkload::serve_images;
    q.image_model = diffusion_unet(c);
    q.model_name = "sd15-unet";
    q.image_batch = 1;
    q.steps = 20;
    const Catalog& cat = Catalog::builtin();
    const PurchaseTable whole = purchase_table(q, cat);
    q.vae_tiling = true;
    const PurchaseTable tiled = purchase_table(q, cat);
    const PurchaseRow& w = row_of(whole, "rtx-4090");
    const PurchaseRow& t = row_of(tiled, "rtx-4090");
    REQUIRE(w.estimated());
    REQUIRE(t.estimated());
    CHECK(t.image_memory < w.image_memory);
    CHECK(t.image_decode->latency.value() > w.image_decode->latency.value());
    CHECK(t.image_memory == image_generation_memory(*q.image_model, 1, 2, Precision::fp16, std::nullopt, {}, false, true).total());
    // The header says how the decode ran; the notes count the tiles (4 x 4 of 512 px, 384 px apart).
    Value j = tiled.output();
    CHECK(std::get<bool>(j["vae_tiling"].data()));
    CHECK_FALSE(std::get<bool>(j["vae_slicing"].data()));
    const auto says = [](const PurchaseTable& tab, std::string_view text) {
      return std::any_of(tab.assumptions.begin(), tab.assumptions.end(), [&](const std::string& a) { return a.find(text) != std::string::npos; });
    };
    CHECK(says(tiled, "in 16 tiles (VAE tiling)"));
    CHECK_FALSE(says(whole, "VAE tiling"));
    // More cards hold the tiled decode than the whole one.
    const auto fits = [](const PurchaseTable& tab) {
      return std::count_if(tab.rows.begin(), tab.rows.end(), [](const PurchaseRow& r) { return r.estimated(); });
    };
    CHECK(fits(tiled) >= fits(whole));
    q.vae_tiling = false;
    q.vae_slicing = true;
    q.image_batch = 4;
    const Catalog h100 = one_gpu_catalog("h100-sxm");  // the rows point into it
    const PurchaseTable sliced_table = purchase_table(q, h100);
    const PurchaseRow& sliced = row_of(sliced_table, "h100-sxm");
    CHECK(sliced.image_memory == image_generation_memory(*q.image_model, 4, 8, Precision::fp16, std::nullopt, {}, true, false).total());
    CHECK(says(sliced_table, "one image at a time (VAE slicing: its memory, not its time)"));
    // The options act on a diffusion pipeline's decoder: anywhere else they are refused by name,
    // never ignored.
    PurchaseQuery bad = q;
    bad.image_model->decoder.clear();
    CHECK(test_support::field_of([&] { (void)purchase_table(bad, cat); }) == "vae_slicing");
    bad = q;
    bad.vae_slicing = false;
    bad.vae_tiling = true;
    bad.image_model = vit_b16();
    CHECK(test_support::field_of([&] { (void)purchase_table(bad, cat); }) == "vae_tiling");
    PurchaseQuery train;
    train.model = find_model("llama3.1-8b").transformer();
    train.vae_tiling = true;
    CHECK(test_support::field_of([&] { (void)purchase_table(train, cat); }) == "vae_tiling");
  }

  TEST_CASE("purchase table: serving rows agree with perf::estimate_inference (capplan infer)") {
    PurchaseQuery q;
    q.model = find_model("llama3.1-70b").transformer();
    q.model_name = "llama3.1-70b";
    q.workload = PurchaseWorkload::serve;
    q.serving.batch = 8;
    q.serving.prompt = 1000;
    q.serving.output = 200;
    q.filters.systems = q.filters.cloud = false;
    const PurchaseTable t = purchase_table(q, Catalog::builtin());
    const PurchaseRow& r = row_of(t, "h100-sxm");
    REQUIRE(r.estimated());
    REQUIRE(r.serving);
    CHECK(r.gpus_to_fit == 2);  // 141 GB of bf16 weights + KV: two 80 GB GPUs, TP 2
    CHECK(r.gpus == 4);         // a board of 4 H100 SXM: two replicas
    CHECK(r.replicas == 2);
    CHECK(r.serving->tp == 2);
    perf::InferenceJob job;  // as capplan infer builds it
    job.model = q.model;
    job.batch = 8;
    job.prompt = 1000;
    job.generate = 200;
    job.tp = 2;
    const perf::InferenceEstimate e = perf::estimate_inference(job, *r.gpu);
    CHECK(r.serving->estimate.tokens_per_second == doctest::Approx(e.tokens_per_second));
    CHECK(r.decode_tokens_per_s == doctest::Approx(2 * e.tokens_per_second));
    CHECK(r.serving->estimate.prefill.value() == doctest::Approx(e.prefill.value()));
  }

  TEST_CASE("weights_without_kernel: FP8 and NVFP4 weights have no engine before Turing; compare --serve says \"no kernel\"") {
    const Catalog& c = Catalog::builtin();
    const GpuSpec& v100 = c.find_gpu("v100-sxm2-32gb");
    CHECK(weights_without_kernel(v100, formats::fp8, std::nullopt) == "fp8 weights");
    CHECK(weights_without_kernel(v100, formats::nvfp4, std::nullopt) == "nvfp4 weights");
    CHECK(weights_without_kernel(v100, formats::bf16, formats::fp8) == "fp8 experts");
    CHECK(weights_without_kernel(v100, formats::bf16, formats::mxfp4).empty());  // llama.cpp's MXFP4 GGUF type runs there
    CHECK(weights_without_kernel(v100, formats::q8_0, std::nullopt).empty());
    CHECK(weights_without_kernel(v100, formats::int4, std::nullopt).empty());    // GPTQ runs on Volta
    CHECK(weights_without_kernel(c.find_gpu("t4"), formats::fp8, std::nullopt).empty());  // FP8 Marlin from Turing
    CHECK(weights_without_kernel(c.find_gpu("a100-sxm-80gb"), formats::nvfp4, std::nullopt).empty());
    GpuSpec pascal = v100;
    pascal.architecture = "PASCAL";  // a catalog file's spelling
    CHECK(weights_without_kernel(pascal, formats::fp8, std::nullopt) == "fp8 weights");
    // The library refuses to time them, naming the field and the format; a GGUF runs.
    const TransformerShape llama = find_model("llama3.1-8b").transformer();
    ServingLoad fp8_load;
    fp8_load.weights = formats::fp8;
    CHECK_THROWS_WITH((void)serving_run(llama, v100, fp8_load), doctest::Contains("weights: fp8 has no kernel on v100-sxm2-32gb (Volta)"));
    CHECK_THROWS_WITH((void)smallest_serving_run(llama, v100, fp8_load), doctest::Contains("weights: fp8"));
    ServingLoad experts;
    experts.expert_weights = formats::fp8;
    CHECK_THROWS_WITH((void)serving_run(find_model("mixtral-8x7b").transformer(), v100, experts), doctest::Contains("expert_weights: fp8"));
    fp8_load.weights = formats::q8_0;
    CHECK(serving_run(llama, v100, fp8_load).estimate.tokens_per_second > 0);

    PurchaseQuery q = gpu_rows_serving("llama3.1-8b", formats::fp8);
    const PurchaseTable t = purchase_table(q, c);
    CHECK(row_of(t, "v100-sxm2-32gb").status == "no kernel");
    CHECK(row_of(t, "t4").estimated());
    const auto& notes = t.assumptions;
    CHECK(std::any_of(notes.begin(), notes.end(), [](const std::string& n) { return n.find("\"no kernel\": no serving engine runs the fp8 weights") != std::string::npos; }));
    q.serving.weights = formats::q8_0;
    CHECK(row_of(purchase_table(q, c), "v100-sxm2-32gb").estimated());
  }

  TEST_CASE("a GPU row of priced modules is whole baseboards: DeepSeek-R1's 6 H200 SXM are a replica on 8") {
    const Catalog& c = Catalog::builtin();
    const PurchaseTable t = purchase_table(gpu_rows_serving("deepseek-r1", formats::fp8), c);
    const GpuSpec& h200 = c.find_gpu("h200-sxm");
    const PurchaseRow& r = row_of(t, "h200-sxm");
    REQUIRE(r.estimated());
    CHECK(r.gpus_to_fit == 6);  // 6 x 141 GB hold the 671B FP8 weights and the cache
    CHECK(r.unit_gpus == 4);    // HGX H200: boards of 4 or 8
    CHECK(r.units == 2);
    CHECK(r.gpus == 8);
    // 6 a replica leave 2 of the 8 over: one replica on all 8 (TP 8) serves faster than the one of 6 (TP 2 x PP 3).
    CHECK(r.replicas == 1);
    REQUIRE(r.serving);
    CHECK(r.serving->tp * r.serving->pp == 8);
    CHECK(r.explanation.find("on all 8 GPUs of the units (the fewest that fit, 6") != std::string::npos);
    ServingLoad load = gpu_rows_serving("deepseek-r1", formats::fp8).serving;
    load.gpus_per_node = 8;
    const auto fewest = smallest_serving_run(find_model("deepseek-r1").transformer(), h200, load);
    REQUIRE(fewest);
    CHECK(fewest->gpus() == 6);
    CHECK(r.decode_tokens_per_s > fewest->estimate.tokens_per_second);
    REQUIRE(r.purchase);
    CHECK(*r.purchase == h200.street_price->amount * Decimal(8));
    CHECK(r.power.basis.find("8 x 700 W") == 0);
    // A board that holds two replicas serves both: MI300X, 4 a replica, 8 a board.
    const PurchaseRow& mi300x = row_of(t, "mi300x");
    CHECK(mi300x.gpus_to_fit == 4);
    CHECK(mi300x.gpus == 8);
    CHECK(mi300x.replicas == 2);
    CHECK(mi300x.decode_tokens_per_s == doctest::Approx(2 * mi300x.serving->estimate.tokens_per_second));
    // A card is bought one at a time; a module without a price is timed on the fewest GPUs, as rented.
    const PurchaseRow& pcie = row_of(t, "a100-pcie-80gb");
    CHECK(pcie.unit_gpus == 1);
    CHECK(pcie.gpus == pcie.gpus_to_fit);
    CHECK(*pcie.purchase == c.find_gpu("a100-pcie-80gb").street_price->amount * Decimal(pcie.gpus));
    const PurchaseRow& b200 = row_of(t, "b200");
    CHECK(!b200.purchase);
    CHECK(b200.unit_gpus == 1);
    const auto& notes = t.assumptions;
    CHECK(std::any_of(notes.begin(), notes.end(), [](const std::string& n) {
      return n.find("h200-sxm") != std::string::npos && n.find("sold on baseboards of 4") != std::string::npos;
    }));
    // Training steps in boards too: a 7B model on H100 SXM is a board of 4, not 1 GPU.
    PurchaseQuery tq = train_query("llama2-7b", 1e9);
    tq.filters.systems = tq.filters.cloud = false;
    tq.filters.form_factor = FormFactor::sxm;
    const PurchaseTable tt = purchase_table(tq, c);
    const PurchaseRow& h100 = row_of(tt, "h100-sxm");
    CHECK(h100.gpus % 4 == 0);
    CHECK(*h100.purchase == c.find_gpu("h100-sxm").street_price->amount * Decimal(h100.gpus));
  }

  TEST_CASE("a rent across nodes comes from instances whose network carries the run as it is timed") {
    Catalog c = catalog_with_my_card();  // my-card: a copy of the H100 SXM, whose nodes are timed on NDR 400 Gb/s a GPU
    const auto offer = [](const char* id, double gbit, InstanceNetwork kind, const char* rate) {
      CloudOffer o{.id = id, .provider = "X", .instance_type = id, .gpu_count = 8, .gpu_id = "my-card",
                   .on_demand = MoneyRate(rate, Currency::USD), .as_of = "2026-11-01", .source = "test"};
      o.network = from_canonical<Bandwidth>(gbit * 1e9 / 8);
      o.network_kind = kind;
      return o;
    };
    c.add_or_replace(offer("x-tcp", 800, InstanceNetwork::tcp, "16.00"));           // 100 Gb/s a GPU at 70 %
    c.add_or_replace(offer("x-ib", 3200, InstanceNetwork::infiniband, "24.00"));    // 400 Gb/s a GPU at 85 %
    const GpuSpec& g = c.find_gpu("my-card");
    CHECK(offer_network_rate(c.find_offer("x-tcp"), g).value() == doctest::Approx(100e9 / 8 * 0.70));
    CHECK(offer_network_rate(c.find_offer("x-ib"), g).value() == doctest::Approx(400e9 / 8 * 0.85));
    const perf::Fabric ndr = perf::usual_fabric(g);
    const Bandwidth need = network_timed(perf::make_cluster(g, 16, 8, ndr.link(8)));
    CHECK(need.value() == doctest::Approx(400e9 / 8 * 0.85));
    CHECK(network_timed(perf::make_cluster(g, 8, 8, ndr.link(8))).value() == 0);  // one node: none asked
    const Duration hour = Duration::from_value(3600);
    // One node: the cheaper TCP instances; two nodes timed on NDR: the InfiniBand ones; nothing asked: TCP.
    CHECK(cheapest_rent(c, "my-card", {}, hour, 8, 8, false, need)->offer->id == "x-tcp");
    CHECK(cheapest_rent(c, "my-card", {}, hour, 16, 8, false, need)->offer->id == "x-ib");
    CHECK(cheapest_rent(c, "my-card", {}, hour, 16, 8)->offer->id == "x-tcp");
    // One pass gives both: the rent and the cheaper offer the network rule passed over.
    const RentChoice choice = cheapest_rent_choice(c, "my-card", {}, hour, 16, 8, false, need);
    CHECK(choice.rent->offer->id == "x-ib");
    REQUIRE(choice.passed_over);
    CHECK(choice.passed_over->offer->id == "x-tcp");
    CHECK(choice.passed_over->bill() < choice.rent->bill());
    CHECK_FALSE(cheapest_rent_choice(c, "my-card", {}, hour, 8, 8, false, need).passed_over);  // one node: the cheapest holds
    CHECK_FALSE(cheapest_rent_choice(c, "my-card", {}, hour, 16, 8).passed_over);             // nothing asked
    {
      // Passed over only where strictly cheaper: a slow offer at the same bill is not named.
      Catalog tie = catalog_with_my_card();
      tie.add_or_replace(offer("x-tie", 800, InstanceNetwork::tcp, "24.00"));
      tie.add_or_replace(offer("x-ib", 3200, InstanceNetwork::infiniband, "24.00"));
      const RentChoice t = cheapest_rent_choice(tie, "my-card", {}, hour, 16, 8, false, need);
      REQUIRE(t.rent);
      CHECK(t.rent->offer->id == "x-ib");
      CHECK_FALSE(t.passed_over);
      // A cheaper slow offer in a currency without a rate is no rent, so not one passed over; with
      // the rate it is.
      Catalog cny = catalog_with_my_card();
      CloudOffer yuan = offer("x-cny", 800, InstanceNetwork::tcp, "1.00");
      yuan.on_demand = MoneyRate("10.00", Currency::CNY);
      yuan.currency = Currency::CNY;
      cny.add_or_replace(yuan);
      cny.add_or_replace(offer("x-ib", 3200, InstanceNetwork::infiniband, "24.00"));
      CHECK_FALSE(cheapest_rent_choice(cny, "my-card", {}, hour, 16, 8, false, need).passed_over);
      const std::vector<ExchangeRate> fx = {ExchangeRate(Currency::CNY, Currency::USD, Decimal(std::string_view("0.14")), "2026-11-01", "test")};
      const RentChoice converted = cheapest_rent_choice(cny, "my-card", fx, hour, 16, 8, false, need);
      REQUIRE(converted.passed_over);
      CHECK(converted.passed_over->offer->id == "x-cny");
      CHECK(converted.rent->offer->id == "x-ib");
    }
    // A run timed on 100 Gb/s Ethernet at 70 % runs on the TCP instances.
    CHECK(cheapest_rent(c, "my-card", {}, hour, 16, 8, false, from_canonical<Bandwidth>(100e9 / 8 * 0.70))->offer->id == "x-tcp");
    // An instance of a whole server that records no network is assumed to have the GPU's usual one:
    // it holds a run timed on that, not one timed on a faster --fabric (XDR 800 Gb/s a GPU).
    const CloudOffer plain = offer("x-plain", 0, InstanceNetwork::tcp, "20.00");
    CHECK(offer_network_rate(plain, g).value() == doctest::Approx(400e9 / 8 * 0.85));
    CHECK(network_holds(plain, g, 16, need));
    const Bandwidth xdr = network_timed(perf::make_cluster(g, 16, 8, perf::find_fabric("ib-xdr").link(8)));
    CHECK(xdr.value() == doctest::Approx(800e9 / 8 * 0.85));
    CHECK_FALSE(network_holds(plain, g, 16, xdr));
    CHECK(network_shortfall(plain, g, xdr).rfind("its instances carry 42.5 GB/s a GPU between them (none recorded: the GPU's usual ", 0) == 0);
    CHECK(network_shortfall(plain, g, xdr).find("assumed, at 85 %), less than the 85 GB/s a GPU the run is timed on") != std::string::npos);
    CHECK_FALSE(network_holds(c.find_offer("x-tcp"), g, 16, need));
    CHECK(network_holds(c.find_offer("x-tcp"), g, 8, need));  // within one instance
    // Without the InfiniBand offer: no rent, and why.
    Catalog slow = catalog_with_my_card();
    slow.add_or_replace(offer("x-tcp", 800, InstanceNetwork::tcp, "16.00"));
    CHECK_FALSE(cheapest_rent(slow, "my-card", {}, hour, 16, 8, false, need));
    const std::vector<std::string> left = offers_left_out(slow, "my-card", {}, true, 8, 16, need);
    REQUIRE(left.size() == 1);
    CHECK(left[0] == "x-tcp (its instances carry 8.75 GB/s a GPU between them (x-tcp's 800 Gb/s TCP for 8 GPUs at 70 %), less than the 42.5 GB/s "
                     "a GPU the run is timed on)");
    CHECK(offers_left_out(slow, "my-card", {}, true, 8, 8, need).empty());
    // The footprint of a run across nodes rents so; bad input is named.
    FootprintOptions fo;
    fo.network = need;
    const RunFootprint f16 = run_footprint(c, g, 16, hour, 16, fo, 8);
    CHECK(f16.price_offer == "x-ib");
    CHECK(f16.passed_over == "x-tcp, whose instances carry 8.75 GB/s a GPU between them (x-tcp's 800 Gb/s TCP for 8 GPUs at 70 %), less than the "
                             "42.5 GB/s a GPU the run is timed on");
    CHECK(run_footprint(c, g, 16, hour, 16, {}, 8).passed_over.empty());  // nothing asked: the cheapest
    CHECK(run_footprint(slow, g, 16, hour, 16, fo, 8).no_price_why.find("x-tcp (its instances carry 8.75 GB/s a GPU") == 0);
    CHECK_THROWS_WITH((void)network_holds(c.find_offer("x-ib"), g, 16, from_canonical<Bandwidth>(-1.0)), doctest::Contains("network"));
    CHECK_THROWS_WITH((void)network_holds(c.find_offer("x-ib"), g, 16, from_canonical<Bandwidth>(std::nan(""))), doctest::Contains("network"));
    // Checked on every path, also where no offer is looked at.
    const Bandwidth nan = from_canonical<Bandwidth>(std::nan(""));
    CHECK_THROWS_WITH((void)cheapest_rent(c, "h100-sxm", {}, hour, 16, 8, false, nan), doctest::Contains("network"));
    CHECK_THROWS_WITH((void)offers_left_out(c, "h100-sxm", {}, true, 8, 16, nan), doctest::Contains("network"));
    FootprintOptions given;
    given.price_per_gpu_hour = MoneyRate("2.00", Currency::USD);
    given.network = nan;
    CHECK_THROWS_WITH((void)run_footprint(c, g, 16, hour, 16, given, 8), doctest::Contains("network"));
  }

  TEST_CASE("purchase table: a GPU row timed across nodes rents instances whose network carries it (not p4d's 50 Gb/s a GPU)") {
    PurchaseQuery q = train_query("llama2-7b", 2e10);
    q.filters.systems = q.filters.cloud = false;
    q.filters.deadline = Duration::from_value(2 * 3600.0);
    const Catalog c = offers_catalog({"aws-p4d.24xlarge", "azure-nd96asr-v4"});
    const PurchaseTable t = purchase_table(q, c);
    const PurchaseRow& r = row_of(t, "a100-sxm-40gb");
    REQUIRE(r.training);
    REQUIRE(r.training->cluster.nodes() > 1);
    // Timed on DGX A100's HDR 200 Gb/s a GPU at 85 %; p4d's 400 Gb/s EFA for 8 GPUs is 50 a GPU.
    CHECK(r.rent_network.value() == doctest::Approx(200e9 / 8 * 0.85));
    CHECK(r.rent_offer == "azure-nd96asr-v4");
    bool said = false;
    for (const std::string& n : t.assumptions)
      said = said || n == "a100-sxm-40gb: rent from azure-nd96asr-v4, not the cheaper aws-p4d.24xlarge: its instances carry 5.31 GB/s a GPU between "
                          "them (p4d.24xlarge's 400 Gb/s EFA for 8 GPUs at 85 %), less than the 21.2 GB/s a GPU the run is timed on (bandwidth x "
                          "efficiency).";
    CHECK(said);
    // With p4d alone: no rent, and the note on offers left out says why (no "Rent for" note).
    const PurchaseTable alone = purchase_table(q, offers_catalog({"aws-p4d.24xlarge"}));
    CHECK_FALSE(row_of(alone, "a100-sxm-40gb").rent_rate);
    bool why = false;
    for (const std::string& n : alone.assumptions) {
      CHECK(n.find("not the cheaper") == std::string::npos);
      why = why || n.rfind("No offer for a100-sxm-40gb: the catalog's aws-p4d.24xlarge (its instances carry 5.31 GB/s a GPU between them", 0) == 0;
    }
    CHECK(why);
    // Within one node nothing is asked: the cheaper p4d.
    q.filters.deadline.reset();
    q.tokens = 1e9;
    const PurchaseTable one = purchase_table(q, c);
    const PurchaseRow& o = row_of(one, "a100-sxm-40gb");
    REQUIRE(o.training);
    CHECK(o.training->cluster.nodes() == 1);
    CHECK(o.rent_network.value() == 0);
    CHECK(o.rent_offer == "aws-p4d.24xlarge");
  }

  TEST_CASE("a rent comes from instances that hold the plan's node; serving replicas share an instance") {
    Catalog c = catalog_with_my_card();
    const auto offer = [](const char* id, int gpus, int max_gpus, const char* rate) {
      return CloudOffer{.id = id, .provider = "X", .instance_type = id, .gpu_count = gpus, .max_gpus = max_gpus, .gpu_id = "my-card",
                        .on_demand = MoneyRate(rate, Currency::USD), .as_of = "2026-11-01", .source = "test"};
    };
    c.add_or_replace(offer("x-1", 1, 0, "0.50"));      // a 1-GPU instance type
    c.add_or_replace(offer("x-per", 1, 4, "0.75"));    // sold by the GPU, up to 4 of a host
    c.add_or_replace(offer("x-8", 8, 0, "8.00"));      // an 8-GPU node, $1 a GPU
    // Any instance for one GPU; a 2-GPU node leaves the 1-GPU type out, a 6-GPU node the 4-GPU hosts too.
    CHECK(cheapest_rent(c, "my-card")->offer->id == "x-1");
    CHECK(cheapest_rent(c, "my-card", {}, std::nullopt, 2, 2)->offer->id == "x-per");
    const auto six = cheapest_rent(c, "my-card", {}, Duration::from_value(3600), 6, 6);
    REQUIRE(six);
    CHECK(six->offer->id == "x-8");
    CHECK(six->billed_gpus == 8);
    CHECK(six->rate() == MoneyRate("8.00", Currency::USD));
    CHECK(six->source() == "x-8 (on_demand, 2026-11-01), 1 whole instance of 8 GPUs (8) for 6");
    const std::vector<std::string> left = offers_left_out(c, "my-card", {}, true, 6);
    CHECK(std::find(left.begin(), left.end(), "x-1 (instances of 1 GPU; the plan needs 6 in one node)") != left.end());
    CHECK(std::find(left.begin(), left.end(), "x-per (instances of 4 GPUs; the plan needs 6 in one node)") != left.end());
    CHECK(offers_left_out(c, "my-card", {}, true, 1).empty());
    CHECK_THROWS_WITH((void)cheapest_rent(c, "my-card", {}, std::nullopt, 2, 0), doctest::Contains("node_gpus"));
    // Serving: a replica of 3 GPUs with TP 3 on the 8-GPU node: two replicas to an instance, its 2 idle
    // GPUs billed between them ($4 a replica-hour).
    c.add_or_replace(offer("x-per", 1, 2, "0.75"));
    const auto rep = cheapest_rent(c, "my-card", {}, std::nullopt, 3, 3, true);
    REQUIRE(rep);
    CHECK(rep->offer->id == "x-8");
    CHECK(rep->replicas_per_instance == 2);
    CHECK(rep->rate() == MoneyRate("4.00", Currency::USD));
    CHECK(rep->instance_factor() == doctest::Approx(8.0 / 6.0));
    CHECK(rep->source() == "x-8 (on_demand, 2026-11-01), 2 replicas of 3 GPUs to an instance of 8 (2 idle, billed)");
    // Replicas of 2 fill it: no idle GPU, no text; a replica of 2 on the per-GPU offer rents exactly 2.
    const auto two = cheapest_rent(c, "my-card", {}, std::nullopt, 2, 2, true);
    REQUIRE(two);
    CHECK(two->offer->id == "x-per");
    CHECK(two->rate() == MoneyRate("1.50", Currency::USD));
    CHECK(two->instance_factor() == doctest::Approx(1.0));
    CHECK(two->source() == "x-per (on_demand, 2026-11-01)");
    // A run's footprint: priced from an instance that holds the node it was timed on (gpus_per_node).
    const RunFootprint f = run_footprint(c, c.find_gpu("my-card"), 6, Duration::from_value(3600), 6.0, {}, 8);
    CHECK(f.price_offer == "x-8");
    CHECK(f.billed_gpu_hours == doctest::Approx(8.0));
    FootprintOptions wide;
    wide.node_gpus = 7;
    CHECK_THROWS_WITH((void)run_footprint(c, c.find_gpu("my-card"), 6, Duration::from_value(3600), 6.0, wide), doctest::Contains("node_gpus: 7"));
    // A catalog offer sold by the GPU must be recorded per GPU, within bounds.
    CloudOffer bad = offer("x-bad", 8, 16, "8.00");
    CHECK_THROWS_WITH(bad.validate(), doctest::Contains("max_gpus: 16 needs gpu_count 1"));
    bad = offer("x-bad", 1, 2000, "1.00");
    CHECK_THROWS_WITH(bad.validate(), doctest::Contains("max_gpus"));
  }

  TEST_CASE("purchase table: a serving replica keeps TP inside an instance and rents where its TP group fits") {
    PurchaseQuery q;
    q.model = find_model("deepseek-r1-distill-qwen-32b").transformer();
    q.model_name = "deepseek-r1-distill-qwen-32b";
    q.workload = PurchaseWorkload::serve;
    q.serving.weights = formats::q4_0;
    q.serving.batch = 4;
    q.serving.prompt = 8192 - 128;
    const PurchaseTable t = purchase_table(q, Catalog::builtin());
    // Two T4s: TP 2 in a server (the GPU row); Colab's 1-GPU instances record no network between them,
    // so no replica spans two.
    const PurchaseRow& t4 = row_of(t, "t4");
    REQUIRE(t4.serving);
    CHECK(t4.serving->tp == 2);
    CHECK_FALSE(t4.rent_rate);  // every T4 offer is a 1-GPU instance: none holds TP 2
    CHECK(row_of(t, "colab-pro").status == "no network");
    // Two L4s: TP 2 in a server; two pipeline stages over g6.xlarge's 2.5 Gb/s between 1-GPU instances.
    const PurchaseRow& l4 = row_of(t, "l4");
    REQUIRE(l4.serving);
    const PurchaseRow& g6 = row_of(t, "aws-g6.xlarge");
    REQUIRE(g6.serving);
    CHECK(g6.serving->tp == 1);
    CHECK(g6.serving->pp == 2);
    CHECK(g6.decode_tokens_per_s < l4.decode_tokens_per_s);
    CHECK(g6.explanation.find("stages across 2 nodes of 1, TP within one") != std::string::npos);
    // Two 1-GPU workstations serve it as two stages over their Ethernet; two cards in one box as TP 2.
    REQUIRE(row_of(t, "ws-rtx-4090").serving);
    CHECK(row_of(t, "ws-rtx-4090").serving->pp == 2);
    CHECK(row_of(t, "ws-rtx-4090").units == 2);
    CHECK(row_of(t, "rtx-4090").serving->tp == 2);
    // A GPU row rents per replica from an offer whose instance holds its TP group.
    const PurchaseRow& h100 = row_of(t, "h100-sxm");
    REQUIRE(h100.serving);
    REQUIRE(h100.rent_rate);
    const auto rent = cheapest_rent(Catalog::builtin(), "h100-sxm", {}, std::nullopt, h100.serving->gpus(), h100.serving->tp, true);
    REQUIRE(rent);
    CHECK(*h100.rent_rate == MoneyRate(rent->rate().amount() * Decimal(h100.replicas), Currency::USD));
    CHECK(min_gpus_for_serving(q.model, q.serving.config(), Catalog::builtin().find_gpu("t4").capacity(), 256, 1)->tensor == 1);
    // The T4 row names no offer (none was rented), and the notes say why each was left out.
    CHECK(t4.rent_offer.empty());
    CHECK(t4.rent_node_gpus == 2);
    const auto has_note = [&](std::string_view part) {
      return std::any_of(t.assumptions.begin(), t.assumptions.end(), [&](const std::string& n) { return n.find(part) != std::string::npos; });
    };
    CHECK(has_note("colab-pro (instances of 1 GPU; the plan needs 2 in one node)"));
    CHECK(has_note("per replica-hour"));
    CHECK(has_note("pipeline stages across instances"));
    // A training table says neither.
    PurchaseQuery tq = train_query("llama2-7b", 1e9);
    tq.filters.cloud = tq.filters.systems = false;
    tq.filters.vendor = Vendor::nvidia;
    tq.filters.form_factor = FormFactor::consumer;
    const PurchaseTable tt = purchase_table(tq, Catalog::builtin());
    CHECK(std::none_of(tt.assumptions.begin(), tt.assumptions.end(),
                       [](const std::string& n) { return n.find("replica") != std::string::npos; }));
  }

  TEST_CASE("serving_report: a replica rents its share of an instance, idle GPUs included") {
    Catalog c = catalog_with_my_card();
    c.add_or_replace(CloudOffer{.id = "x-8", .provider = "X", .instance_type = "eight", .gpu_count = 8, .gpu_id = "my-card",
                                .on_demand = MoneyRate("8.00", Currency::USD), .as_of = "2026-11-01", .source = "test"});
    const TransformerShape shape = find_model("llama2-7b").transformer();
    ServingLoad load;
    // Three pipeline stages of TP 1: two replicas to the 8-GPU instance, $4 an hour each.
    const ServingReport r = serving_report(c, "llama2-7b", c.find_gpu("my-card"), serving_run(shape, c.find_gpu("my-card"), load, 1, 3), load);
    CHECK(r.footprint.price_offer == "x-8");
    CHECK(r.footprint.instance_factor == doctest::Approx(8.0 / 6.0));
    CHECK(r.footprint.price_from == "x-8 (on_demand, 2026-11-01), 2 replicas of 3 GPUs to an instance of 8 (2 idle, billed)");
    REQUIRE(r.cost_per_million_tokens);
    CHECK(r.cost_per_million_tokens->amount().to_double() ==
          doctest::Approx(4.0 / (r.run.estimate.tokens_per_second * 3600.0) * 1e6).epsilon(1e-9));
  }

  TEST_CASE("purchase table: a note names the multi-GPU PCIe rows and the host they are timed on") {
    PurchaseQuery q;
    q.model = find_model("llama3.1-70b").transformer();
    q.model_name = "llama3.1-70b";
    q.workload = PurchaseWorkload::serve;
    q.filters.systems = q.filters.cloud = false;
    const auto note_with = [](const PurchaseTable& t, std::string_view start) {
      for (const std::string& n : t.assumptions)
        if (n.rfind(start, 0) == 0) return n;
      return std::string();
    };
    const PurchaseTable t = purchase_table(q, Catalog::builtin());
    const std::string boxes = note_with(t, "PCIe boxes (");
    REQUIRE_FALSE(boxes.empty());
    // Both the L40S and the L4 serve it on several GPUs; each is named whole (an id inside another id is
    // not taken for it), NVLink and Infinity Fabric parts are not.
    REQUIRE(row_of(t, "l4").gpus > 1);
    REQUIRE(row_of(t, "l40s").gpus > 1);
    std::vector<std::string> ids;
    const std::string list = boxes.substr(boxes.find('(') + 1, boxes.find(')') - boxes.find('(') - 1);
    for (std::size_t at = 0; at <= list.size();) {
      const std::size_t end = std::min(list.find(", ", at), list.size());
      ids.push_back(list.substr(at, end - at));
      at = end + 2;
    }
    const auto listed = [&](const char* id) { return std::find(ids.begin(), ids.end(), id) != ids.end(); };
    CHECK(listed("l4"));
    CHECK(listed("l40s"));
    CHECK_FALSE(listed("h100-sxm"));
    CHECK_FALSE(listed("mi300x"));
    CHECK(boxes.find("under PCIe switches") != std::string::npos);
    CHECK(note_with(t, "GeForce cards (").find("rtx-4090") != std::string::npos);
    q.serving.pcie_host = perf::PcieHost::root_complex;
    CHECK(note_with(purchase_table(q, Catalog::builtin()), "PCIe boxes (").find("on one CPU's root complex, so NCCL goes through host memory") !=
          std::string::npos);
  }

  TEST_CASE("purchase table: --deadline finds the fewest GPUs that finish in time") {
    PurchaseQuery q = gpu_deadline_query();
    const Catalog h100 = one_gpu_catalog("h100-sxm");  // the rows point into it
    const PurchaseTable t = purchase_table(q, h100);
    const TransformerShape shape = q.model;
    const PurchaseRow& r = row_of(t, "h100-sxm");
    REQUIRE(r.estimated());
    CHECK(r.deadline_sized);
    CHECK(r.gpus > r.gpus_to_fit);
    // In time means the expected wall clock, failures and checkpoints included.
    REQUIRE(r.goodput);
    CHECK(r.goodput->expected_wall_clock.value() <= 3 * 86400.0);
    CHECK(r.time.value() < r.goodput->expected_wall_clock.value());
    // Beyond one node the search counts whole nodes of 8: one node fewer is late.
    REQUIRE(r.gpus > 8);
    CHECK(r.gpus % 8 == 0);
    const auto fewer = best_training_run(shape, *r.gpu, r.gpus - 8, {});
    REQUIRE(fewer.run);
    const Duration fewer_time = fewer.run->time_for_tokens(2e11);
    CHECK(estimate_goodput(fewer_time, r.gpus - 8, checkpoint_size(static_cast<std::int64_t>(parameter_count(q.model))), q.goodput,
                           fewer.run->estimate.iteration)
              .expected_wall_clock.value() > 3 * 86400.0);
    // The rendered row says so.
    const Table tt = t.table();
    bool marked = false;
    for (const auto& row : tt.rows) marked = marked || (row[0].text == "h100-sxm" && row[2].text == std::to_string(r.gpus) + "†");
    CHECK(marked);
  }

  TEST_CASE("purchase table: --deadline holds the expected wall clock, not the iterations, against the deadline") {
    // A cluster that fails often: the iterations alone would make the deadline on fewer GPUs than the
    // run, with its restarts and lost work, needs. Without failures the two agree.
    PurchaseQuery q = gpu_deadline_query();
    q.goodput.failures_per_gpu_hour = 0.0;
    q.goodput.storage_write = Bandwidth::from_value(1e15);
    const Catalog h100 = one_gpu_catalog("h100-sxm");
    const PurchaseRow quiet = row_of(purchase_table(q, h100), "h100-sxm");
    q.goodput.failures_per_gpu_hour = 20 * llama3_failures_per_gpu_hour;
    q.goodput.restart = Duration::from_value(3600.0);
    q.goodput.storage_write = GoodputConfig{}.storage_write;
    const PurchaseRow failing = row_of(purchase_table(q, h100), "h100-sxm");
    REQUIRE(quiet.estimated());
    REQUIRE(failing.estimated());
    REQUIRE(failing.goodput);
    CHECK(failing.gpus > quiet.gpus);
    CHECK(failing.goodput->expected_wall_clock.value() <= 3 * 86400.0);
    // The quiet count's iterations would have made it; its expected wall clock does not.
    const TransformerShape shape = q.model;
    const auto at_quiet = best_training_run(shape, *failing.gpu, quiet.gpus, {});
    REQUIRE(at_quiet.run);
    const Duration iterations = at_quiet.run->time_for_tokens(2e11);
    CHECK(iterations.value() <= 3 * 86400.0);
    CHECK(estimate_goodput(iterations, quiet.gpus, checkpoint_size(static_cast<std::int64_t>(parameter_count(q.model))), q.goodput,
                           at_quiet.run->estimate.iteration)
              .expected_wall_clock.value() > 3 * 86400.0);
  }

  TEST_CASE("purchase table: --deadline finds the fewest GPUs where the wall clock falls, then rises, with the GPUs") {
    // Frequent failures and hour-long restarts: the expected wall clock of Llama 2 7B on 1e11 tokens
    // stops falling near 64 H100s, as failures grow with the GPUs. A deadline just above its lowest
    // point is met there, though probing on from the iterations' count would have stepped past it.
    PurchaseQuery q = train_query("llama2-7b", 1e11);
    q.filters.gpus = true;
    q.filters.systems = q.filters.cloud = false;
    q.goodput.failures_per_gpu_hour = 0.015;
    q.goodput.restart = Duration::from_value(3600.0);
    const TransformerShape shape = q.model;
    const GpuSpec& g = Catalog::builtin().find_gpu("h100-sxm");
    const DataSize ckpt = checkpoint_size(static_cast<std::int64_t>(parameter_count(q.model)));
    std::map<int, double> wall;
    for (int nodes = 5; nodes <= 11; ++nodes) {
      const auto run = best_training_run(shape, g, 8 * nodes, {});
      REQUIRE(run.run);
      wall[8 * nodes] =
          estimate_goodput(run.run->time_for_tokens(1e11), 8 * nodes, ckpt, q.goodput, run.run->estimate.iteration).expected_wall_clock.value();
    }
    const auto lowest = std::min_element(wall.begin(), wall.end(), [](const auto& a, const auto& b) { return a.second < b.second; });
    REQUIRE(lowest->first > 40);
    REQUIRE(lowest->first < 88);
    CHECK(wall.rbegin()->second > lowest->second);  // it rises again: the case this test is for
    q.filters.deadline = Duration::from_value(lowest->second * 1.0001);
    const Catalog h100 = one_gpu_catalog("h100-sxm");  // the rows point into it
    const PurchaseRow r = row_of(purchase_table(q, h100), "h100-sxm");
    REQUIRE(r.estimated());
    int fewest = 0;
    for (const auto& [gpus, w] : wall)
      if (!fewest && w <= q.filters.deadline->value()) fewest = gpus;
    CHECK(r.gpus == fewest);
    REQUIRE(r.goodput);
    CHECK(r.goodput->expected_wall_clock.value() <= q.filters.deadline->value());
    // A longer deadline never leaves the row out, nor needs more GPUs.
    int gpus = r.gpus;
    for (const double longer : {1.1, 1.5, 3.0}) {
      CAPTURE(longer);
      q.filters.deadline = Duration::from_value(lowest->second * longer);
      const PurchaseRow more = row_of(purchase_table(q, h100), "h100-sxm");
      REQUIRE(more.estimated());
      CHECK(more.gpus <= gpus);
      gpus = more.gpus;
    }
  }

  TEST_CASE("purchase table: a price range stays a range (issue: never collapsed to its low end)") {
    // The catalog's H100 SXM street price is $28,750-31,904.63 (docs/catalog.md); the low end ranks the row.
    PurchaseQuery q = train_query("llama2-7b", 1e9);
    q.filters.systems = q.filters.cloud = false;
    q.filters.vendor = Vendor::nvidia;
    q.filters.form_factor = FormFactor::sxm;
    const PurchaseTable t = purchase_table(q, Catalog::builtin());
    const PurchaseRow& r = row_of(t, "h100-sxm");
    const auto price = Catalog::builtin().find_gpu("h100-sxm").street_price;
    REQUIRE(price);
    REQUIRE(price->high);
    REQUIRE(r.purchase);
    REQUIRE(r.purchase_high);
    CHECK(*r.purchase == price->amount * r.gpus);  // whole boards of 4
    CHECK(*r.purchase_high == *price->high * r.gpus);
    REQUIRE(r.own_cost_high);
    CHECK(*r.own_cost_high - *r.own_cost == *r.purchase_high - *r.purchase);
    // Break-even at each end: a dearer purchase pays off no sooner.
    REQUIRE(r.break_even_month);
    CHECK((!r.break_even_month_high || *r.break_even_month_high >= *r.break_even_month));
    const auto high = row_cost_comparison(r, q, PriceEnd::high);
    REQUIRE(high);
    CHECK(high->owned.purchase == *r.purchase_high);
    CHECK(high->break_even_month == r.break_even_month_high);
    // The table shows both ends; the cell's value (sorting, ranking) is the low end.
    const Table tt = t.table();
    const std::size_t own = tt.column_index("own_cost_usd"), be = tt.column_index("break_even_month");
    bool seen = false;
    for (const auto& row : tt.rows) {
      if (row[0].text.rfind("h100-sxm", 0) != 0) continue;
      seen = true;
      CHECK(row[own].text.find("\u2013") != std::string::npos);
      CHECK(row[own].number == doctest::Approx(r.own_cost->amount().to_double()));
      if (r.break_even_month_high != r.break_even_month) CHECK(row[be].text.find(std::to_string(*r.break_even_month)) == 0);
    }
    CHECK(seen);
    // A range in another currency stays a range too, with its code, and no value under the USD column.
    const Cell eur = detail::range_cell(Money("56000", Currency::EUR), Money("60000", Currency::EUR), "no price");
    CHECK(eur.text == "56000\u201360000 EUR");
    CHECK(eur.currency == std::optional<std::string>("EUR"));
    CHECK(eur.exact == std::optional<std::string>("56000"));
    CHECK(machine_value(eur).is_null());
    // JSON: the high ends under their own keys.
    Value out = t.output();
    bool keyed = false;
    for (Value e : std::get<Value::Array>(out["rows"].data())) {
      if (std::get<std::string>(e["option"].data()) != "h100-sxm") continue;
      keyed = true;
      CHECK(std::get<Value::Exact>(e["own_cost_high_usd"].data()).decimal == to_json_string(r.own_cost_high->rounded_to(2)));
      CHECK(std::get<std::int64_t>(e["break_even_month"].data()) == *r.break_even_month);
    }
    CHECK(keyed);
    // Every GPU row has a high end exactly when its catalog price is a range.
    for (const PurchaseRow& row : t.rows) {
      const auto p = detail::gpu_price(*row.gpu);
      CAPTURE(row.option);
      CHECK(row.purchase_high.has_value() == (p && p->high && *p->high != p->amount));
    }
  }

  TEST_CASE("purchase table: a missing price reads \"no price\", never zero") {
    Catalog c = Catalog::make_builtin();
    GpuSpec g = c.find_gpu("h100-sxm");
    g.street_price.reset();
    g.launch_price.reset();
    c.add_or_replace(g);
    PurchaseQuery q = train_query("llama2-7b", 1e9);
    q.filters.systems = q.filters.cloud = false;
    q.filters.vendor = Vendor::nvidia;
    q.filters.form_factor = FormFactor::sxm;
    const PurchaseTable t = purchase_table(q, c);
    const PurchaseRow& r = row_of(t, "h100-sxm");
    CHECK_FALSE(r.purchase);
    CHECK_FALSE(r.own_cost);
    CHECK_FALSE(r.usd_per_tflop);
    const Table tt = t.table();
    const std::size_t own = tt.column_index("own_cost_usd");
    for (const auto& row : tt.rows) {
      if (row[0].text != "h100-sxm") continue;
      CHECK(row[own].text == "no price");
      CHECK_FALSE(row[own].number);
      CHECK_FALSE(row[own].exact);
    }
    CHECK(render_csv(tt).find("no price") != std::string::npos);
  }

  TEST_CASE("purchase table: energy counts the host (system parts, or the allowance)") {
    const Catalog& c = Catalog::builtin();
    PurchaseQuery q = train_query("llama2-7b", 1e9);
    q.pue = 1.1;
    const PurchaseTable t = purchase_table(q, c);
    // A known system: its parts through its PSU, all units.
    const PurchaseRow& dgx = row_of(t, "dgx-a100");
    REQUIRE(dgx.estimated());
    const SystemPower sp = system_power(c.find_system("dgx-a100"), c);
    CHECK(dgx.power.total.value() == doctest::Approx(sp.wall_total().value() * dgx.units));
    CHECK(dgx.power.total > dgx.power.gpus);
    // Over the expected wall clock: the iterations with failures, restarts and checkpoints.
    REQUIRE(dgx.goodput);
    CHECK(dgx.goodput->expected_wall_clock > dgx.time);
    CHECK(dgx.energy.value() == doctest::Approx(dgx.power.total.value() * dgx.goodput->expected_wall_clock.value() * 1.1));
    // A GPU alone, data centre: TDP x 1.10.
    const PurchaseRow& h = row_of(t, "h100-sxm");
    CHECK(h.power.total.value() == doctest::Approx(700.0 * 1.10 * h.gpus));
    CHECK(h.power.planning.value() == h.power.total.value());  // no stated maximum: the estimate
  }

  // Patterson et al. 2021, Table 4: GPT-3 on 10,000 V100 for 14.8 days, 330 W measured system power
  // per accelerator, PUE 1.10: 1,287 MWh. The allowance (300 W TDP x 1.10) reproduces it within 0.5%.
  TEST_CASE("host allowance: GPT-3 energy (Patterson et al. 2021, Table 4)") {
    const ItPower p = gpu_it_power(Catalog::builtin().find_gpu("v100-sxm2-32gb"), 10000);
    CHECK(p.total.value() == doctest::Approx(3.3e6));
    const double mwh = p.total.value() * 14.8 * 86400 * 1.10 / 3.6e9;
    CHECK(mwh == doctest::Approx(1287).epsilon(0.005));
  }

  // The desktop allowance against the catalog's 1 x RTX 4090 workstation modelled part by part
  // (803.6 W at the wall, tests/integration_test.cpp): (450 + 218) / 0.90 = 742.2 W, within 10%.
  TEST_CASE("host allowance: a consumer card close to the modelled workstation") {
    const Catalog& c = Catalog::builtin();
    const ItPower p = gpu_it_power(c.find_gpu("rtx-4090"), 1);
    CHECK(p.total.value() == doctest::Approx((450.0 + 218.0) / 0.90));
    const double ws = system_it_power(c.find_system("ws-rtx-4090"), c).total.value();
    CHECK(p.total.value() == doctest::Approx(ws).epsilon(0.10));
  }

  // Two cards share a desktop host, as in the catalog's ws-2x-rtx-4090 (parts at full load: 1.287 kW at
  // the wall): (2 x 450 + 218) / 0.90 = 1.242 kW, within 5%; a host per card came to 1.484 kW (+15%).
  TEST_CASE("host allowance: two consumer cards share one desktop") {
    const Catalog& c = Catalog::builtin();
    const ItPower two = gpu_it_power(c.find_gpu("rtx-4090"), 2);
    CHECK(two.total.value() == doctest::Approx((2 * 450.0 + 218.0) / 0.90));
    CHECK(two.basis.find("1 x 218 W host, one for every 2 cards)") != std::string::npos);
    // Timed on one card per node (no link between hosts): a host per card, never fewer hosts than nodes.
    const ItPower per_node = gpu_it_power(c.find_gpu("rtx-4090"), 4, {}, 1);
    CHECK(per_node.total.value() == doctest::Approx(4 * (450.0 + 218.0) / 0.90));
    // Timed as 6 cards on a node of 8: 6/8 of a 2-socket GPU server's host (below), not three desktops.
    CHECK(gpu_it_power(c.find_gpu("rtx-4090"), 6, {}, 8).basis.find("+ 0.75 x a 2-socket GPU server host") != std::string::npos);
    CHECK(gpu_it_power(c.find_gpu("rtx-4090"), 6, {}, 2).total.value() == doctest::Approx((6 * 450.0 + 3 * 218.0) / 0.90));
    CHECK(gpu_it_power(c.find_gpu("rtx-4090"), 5, {}, 1).basis.find("5 x (450 W + 218 W host)") != std::string::npos);
    CHECK_THROWS_WITH_AS(gpu_it_power(c.find_gpu("rtx-4090"), 2, {}, -1), doctest::Contains("gpus_per_node"), InputError);
    const double ws = system_it_power(c.find_system("ws-2x-rtx-4090"), c).total.value();
    CHECK(two.total.value() == doctest::Approx(ws).epsilon(0.05));
    // Three cards: two desktops; five: three.
    CHECK(gpu_it_power(c.find_gpu("rtx-4090"), 3).total.value() == doctest::Approx((3 * 450.0 + 2 * 218.0) / 0.90));
    CHECK(gpu_it_power(c.find_gpu("rtx-4090"), 5).total.value() == doctest::Approx((5 * 450.0 + 3 * 218.0) / 0.90));
    HostAllowance four;
    four.desktop_gpus = 4;
    CHECK(gpu_it_power(c.find_gpu("rtx-4090"), 4, four).total.value() == doctest::Approx((4 * 450.0 + 218.0) / 0.90));
    HostAllowance bad;
    bad.desktop_gpus = 0;
    CHECK_THROWS_WITH_AS(gpu_it_power(c.find_gpu("rtx-4090"), 1, bad), doctest::Contains("host.desktop_gpus"), InputError);
    CHECK(host_allowance_note().find("a 218 W desktop host for every 2 cards, rounded up") != std::string::npos);
  }

  // A node of more cards than a desktop holds is a 2-socket GPU server, the host the performance model
  // assumes for them: 2 CPUs, 16 DIMMs, a drive, the rack board and 10 % fans, through an 80 PLUS
  // Platinum 230 V redundant supply at 80 % load (92.2 %), as capplan power models such a box from
  // parts; each card takes 1 / (cards a node) of the host.
  TEST_CASE("host allowance: a node of 8 consumer cards is a GPU server, not four desktops") {
    const Catalog& c = Catalog::builtin();
    const GpuSpec& r4090 = c.find_gpu("rtx-4090");
    const double eta = load_efficiency_curve(EightyPlusTier::platinum, PsuInput::v230_internal_redundant).at(0.8);
    CHECK(eta == doctest::Approx(0.922));
    const auto server = [&](double cards, double cpu, double share) {
      const double loads = 2 * cpu + 16 * 5 + 8;
      return (cards + share * (loads + 100) + 0.10 * (cards + share * loads)) / eta;
    };
    const ItPower eight = gpu_it_power(r4090, 8, {}, 8);
    CHECK(eight.total.value() == doctest::Approx(server(8 * 450.0, 280, 1)));  // 5.18 kW; four desktops gave 4.97
    CHECK(eight.basis.find("+ a 2-socket GPU server host, one a node of 8 (2 x 280 W CPUs + 16 DIMMs x 5 W + 8 W drive + 100 W board = 748 W)") !=
          std::string::npos);
    CHECK(eight.planning.value() == doctest::Approx(eight.total.value()));
    // PCIe 5 cards: a Xeon Platinum 8480+ pair (350 W each), as NVIDIA/nccl#1639's 8 x RTX 5090 box.
    CHECK(gpu_it_power(c.find_gpu("rtx-5090"), 8, {}, 8).total.value() == doctest::Approx(server(8 * 575.0, 350, 1)));
    // Each card its share: 16 on nodes of 8, two hosts; 10, 1.25; a replica of 4 on a node of 8, half.
    CHECK(gpu_it_power(r4090, 16, {}, 8).total.value() == doctest::Approx(server(16 * 450.0, 280, 2)));
    CHECK(gpu_it_power(r4090, 10, {}, 8).total.value() == doctest::Approx(server(10 * 450.0, 280, 1.25)));
    CHECK(gpu_it_power(r4090, 10, {}, 8).basis.find("+ 1.25 x a 2-socket GPU server host") != std::string::npos);
    CHECK(gpu_it_power(r4090, 4, {}, 8).total.value() == doctest::Approx(server(4 * 450.0, 280, 0.5)));
    // Node unknown, nodes of a desktop's cards, or no more cards than a desktop holds: desktops, as before.
    CHECK(gpu_it_power(r4090, 8).total.value() == doctest::Approx((8 * 450.0 + 4 * 218.0) / 0.90));
    CHECK(gpu_it_power(r4090, 8, {}, 2).total.value() == doctest::Approx((8 * 450.0 + 4 * 218.0) / 0.90));
    CHECK(gpu_it_power(r4090, 2, {}, 8).total.value() == doctest::Approx((2 * 450.0 + 218.0) / 0.90));
    // desktop_gpus sets both: 4 cards a desktop, so a node of 4 is a desktop and one of 8 a server.
    HostAllowance four;
    four.desktop_gpus = 4;
    CHECK(gpu_it_power(r4090, 4, four, 4).total.value() == doctest::Approx((4 * 450.0 + 218.0) / 0.90));
    CHECK(gpu_it_power(r4090, 8, four, 8).total.value() == doctest::Approx(server(8 * 450.0, 280, 1)));
    // A PCIe 5 workstation card in a server node; an SoC stays a box; data-centre cards keep the factor.
    const GpuSpec& pro = c.find_gpu("rtx-pro-6000");
    CHECK(gpu_it_power(pro, 8, {}, 8).total.value() == doctest::Approx(server(8 * pro.tdp.value(), 350, 1)));
    CHECK(gpu_it_power(c.find_gpu("dgx-spark"), 8, {}, 8).total.value() == doctest::Approx(8 * (140.0 + 48.0) / 0.90));
    CHECK(gpu_it_power(c.find_gpu("h100-sxm"), 8, {}, 8).total.value() == doctest::Approx(8 * 700.0 * 1.10));
    // The same box from parts (capplan power: a system of more than 2 GPUs and no chassis is a rack
    // server, its supply sized at the draw x 1.25): the same watts.
    SystemSpec box;
    box.id = "box";
    box.parts = {{PartKind::gpu, "rtx-4090", 8}, {PartKind::cpu, "epyc-7763", 2}, {PartKind::memory, "ddr4-3200-rdimm-64gb", 16},
                 {PartKind::storage, "samsung-990-pro-2tb", 1}};
    CHECK(eight.total.value() == doctest::Approx(system_it_power(box, c).total.value()).epsilon(0.01));
    HostAllowance bad;
    bad.server_dimms = -1;
    CHECK_THROWS_WITH_AS(gpu_it_power(r4090, 8, bad, 8), doctest::Contains("host.server_dimms"), InputError);
    bad = {};
    bad.server_psu_load = 0;
    CHECK_THROWS_WITH_AS(gpu_it_power(r4090, 8, bad, 8), doctest::Contains("host.server_psu_load"), InputError);
    bad = {};
    bad.server_cpu_pcie5 = Power::from_value(-1);
    CHECK_THROWS_WITH_AS(gpu_it_power(r4090, 8, bad, 8), doctest::Contains("host.server_cpu_pcie5"), InputError);
    CHECK(host_allowance_note().find("a node timed with more than 2 cards is a 2-socket GPU server") != std::string::npos);
    bad = {};
    bad.server_sockets = 3;
    CHECK_THROWS_WITH_AS(gpu_it_power(r4090, 8, bad, 8), doctest::Contains("host.server_sockets"), InputError);
    // On one CPU's root ports (--pcie-host cpu or pairs), timed on one socket: powered as one, 1 CPU and 8 DIMMs.
    const HostAllowance one = for_pcie_host({}, perf::PcieHost::root_complex);
    CHECK(one.server_sockets == 1);
    CHECK(for_pcie_host({}, perf::PcieHost::switch_pairs).server_sockets == 1);
    CHECK(for_pcie_host(one, perf::PcieHost::pcie_switch).server_sockets == 2);
    const ItPower single = gpu_it_power(r4090, 8, one, 8);
    const double loads1 = 280 + 8 * 5 + 8;
    CHECK(single.total.value() == doctest::Approx((8 * 450.0 + loads1 + 100 + 0.10 * (8 * 450.0 + loads1)) / eta));
    CHECK(single.basis.find("a 1-socket GPU server host, one a node of 8 (1 x 280 W CPU + 8 DIMMs") != std::string::npos);
    CHECK(host_allowance_note(one).find("is a 1-socket GPU server (1 CPU, 8 DIMMs") != std::string::npos);
    // compare powers its GPU rows on the host they are timed on (an 8B model needs more than 2 cards).
    PurchaseQuery q = train_query("llama3.1-8b", 1e9);
    q.training.seq_len = 4096;
    q.filters.systems = q.filters.cloud = false;
    Catalog only;
    only.add_or_replace(r4090);
    q.training.global_batch = 64;
    const PurchaseTable two_sockets = purchase_table(q, only);
    q.training.pcie_host = perf::PcieHost::root_complex;
    const PurchaseTable one_socket = purchase_table(q, only);
    const PurchaseRow& a2 = row_of(two_sockets, "rtx-4090");
    const PurchaseRow& a1 = row_of(one_socket, "rtx-4090");
    REQUIRE(a2.estimated());
    REQUIRE(a1.estimated());
    CAPTURE(a1.gpus);
    CAPTURE(a1.power.basis);
    REQUIRE(a1.gpus > 2);  // more cards than a desktop: a GPU server's node
    CHECK(a1.power.total.value() < a2.power.total.value());
    CHECK(a1.power.basis.find("1-socket") != std::string::npos);
    CHECK(a2.power.basis.find("2-socket") != std::string::npos);
  }

  // A workstation card (a PCIe card with its own fans: the RTX 6000 Ada's blower) sits in a desktop:
  // (300 + 218) / 0.90 = 575.6 W against the catalog's ws-rtx-6000-ada from its parts (628.2 W), within
  // 10%; the data-centre factor gave 330 W. A passive PCIe card (L40S) keeps TDP x 1.10.
  TEST_CASE("host allowance: a workstation card gets a desktop host, a passive PCIe card the server factor") {
    const Catalog& c = Catalog::builtin();
    const GpuSpec& ada = c.find_gpu("rtx-6000-ada");
    CHECK(desktop_card(ada));
    const ItPower one = gpu_it_power(ada, 1);
    CHECK(one.total.value() == doctest::Approx((300.0 + 218.0) / 0.90));
    CHECK(one.total.value() == doctest::Approx(system_it_power(c.find_system("ws-rtx-6000-ada"), c).total.value()).epsilon(0.10));
    const GpuSpec& l40s = c.find_gpu("l40s");
    CHECK_FALSE(desktop_card(l40s));
    CHECK(gpu_it_power(l40s, 2).total.value() == doctest::Approx(2 * 350.0 * 1.10));
    CHECK_FALSE(desktop_card(c.find_gpu("h200-nvl")));  // cooling not recorded: the data-centre factor
  }

  // An SoC's TDP holds its CPU: its box adds a board, fans, memory and a drive, no desktop CPU. DGX
  // Spark's GB10 is 140 W and the box ships with a 240 W adapter: (140 + 48) / 0.90 = 208.9 W fits
  // under it; counted as a consumer card's desktop (TDP + 218 W) it came to 397.8 W, over the adapter.
  TEST_CASE("host allowance: an SoC's box adds no CPU and stays inside its adapter") {
    const Catalog& c = Catalog::builtin();
    const ItPower spark = gpu_it_power(c.find_gpu("dgx-spark"), 1);
    CHECK(spark.total.value() == doctest::Approx((140.0 + 48.0) / 0.90));
    CHECK((spark.total * 0.90).value() < 240.0);  // its DC draw (188 W) inside the 240 W its adapter delivers
    CHECK(spark.basis.find("its CPU included") != std::string::npos);
    const ItPower two = gpu_it_power(c.find_gpu("ryzen-ai-max-395"), 2);  // two boxes, a box each
    CHECK(two.total.value() == doctest::Approx(2 * (120.0 + 48.0) / 0.90));
    CHECK(host_allowance_note({}, true).find("SoCs (TDP, their CPU included, + 48 W") != std::string::npos);
    CHECK(host_allowance_note().find("SoC") == std::string::npos);
  }

  TEST_CASE("purchase table: sorting, bad input named") {
    PurchaseQuery q = train_query("llama2-7b", 1e9);
    q.filters.systems = q.filters.cloud = false;
    q.filters.vendor = Vendor::amd;
    PurchaseTable t = purchase_table(q, Catalog::builtin());
    REQUIRE(t.rows.size() >= 2);
    for (std::size_t i = 1; i < t.rows.size(); ++i) {
      if (t.rows[i].estimated() && t.rows[i - 1].estimated()) CHECK(t.rows[i - 1].time <= t.rows[i].time);
    }
    t.sort_by("memory_per_gpu_bytes", true);
    CHECK(t.rows.front().gpu_memory >= t.rows.back().gpu_memory);
    CHECK_THROWS_WITH(t.sort_by("speed"), doctest::Contains("sort: \"speed\" is not a column"));
    PurchaseQuery bad = q;
    bad.tokens = 0;
    CHECK_THROWS_WITH((void)purchase_table(bad, Catalog::builtin()), doctest::Contains("tokens"));
    bad = q;
    bad.pue = 0.9;
    CHECK_THROWS_AS((void)purchase_table(bad, Catalog::builtin()), InputError);
    bad = q;
    bad.workload = PurchaseWorkload::serve;
    bad.filters.deadline = Duration::from_value(86400);
    CHECK_THROWS_WITH((void)purchase_table(bad, Catalog::builtin()), doctest::Contains("deadline"));
  }
}

TEST_SUITE("report") {
  TEST_CASE("purchase table: the terminal tables read at 100 columns") {
    for (bool serve : {false, true}) {
      PurchaseQuery q = train_query("llama2-7b", 1e9);
      if (serve) {
        q.workload = PurchaseWorkload::serve;
        q.tokens = 0;
      }
      q.filters.deadline.reset();
      const PurchaseTable t = purchase_table(q, Catalog::builtin());
      for (const Table& part : t.terminal_tables()) {
        // Title, rows and notes: render_text wraps at RenderOptions' width (100), as the CLI prints.
        const std::string text = render_text(part);
        std::size_t col = 0, widest = 0;
        for (unsigned char ch : text) {
          if (ch == '\n') col = 0;
          else if ((ch & 0xC0) != 0x80) widest = std::max(widest, ++col);
        }
        CAPTURE(serve);
        CHECK(widest <= 100);
      }
    }
  }
}

// A whole training run and serving load for programs (plan/training_report.hpp,
// plan/serving_report.hpp, report/run_output.hpp): what capplan train and capplan infer print as JSON.
#include <capplan/plan/run_footprint.hpp>
#include <capplan/plan/serving_report.hpp>
#include <capplan/plan/training_report.hpp>
#include <capplan/report/run_output.hpp>

namespace {
const Value& member(const Value& v, std::string_view key) {
  for (const auto& [k, e] : std::get<Value::Object>(v.data()))
    if (k == key) return e;
  FAIL("no member " << key);
  return v;
}
std::vector<std::string> keys_of(const Value& v) {
  std::vector<std::string> out;
  for (const auto& kv : std::get<Value::Object>(v.data())) out.push_back(kv.first);
  return out;
}
}  // namespace

TEST_SUITE("report") {
  TEST_CASE("run footprint: energy = IT power x time x PUE, carbon = energy x grid, cost = price x GPU-hours") {
    const Catalog& c = Catalog::builtin();
    const GpuSpec& h100 = c.find_gpu("h100-sxm");
    FootprintOptions o;
    o.pue = 1.2;
    o.grid_g_per_kwh = 400;
    const RunFootprint f = run_footprint(c, h100, 8, Duration::from_value(7200), 16, o);
    // 8 x 700 W x 1.1 host = 6,160 W; x 2 h x 1.2 = 14.784 kWh; x 0.4 kg/kWh = 5.9136 kg.
    CHECK(f.power.total.value() == doctest::Approx(6160));
    CHECK(f.kwh.value() == doctest::Approx(14.784));
    CHECK(f.co2_kg.value() == doctest::Approx(5.9136));
    // No price given: the cheapest USD offer, named with its kind and date, the same as the purchase table's rent.
    const auto rent = cheapest_rent(c, h100.id);
    REQUIRE(rent);
    REQUIRE(f.price);
    CHECK(f.price->amount() == rent->per_gpu_hour.amount());
    CHECK(f.price_from == rent->source());
    CHECK(f.cost->amount() == (rent->per_gpu_hour * Duration::from_value(16 * 3600.0)).amount());
    // A given price wins; a bad PUE is named.
    o.price_per_gpu_hour = parse_money_rate("$2/h", "price");
    o.price_from = "a quote";
    const RunFootprint q = run_footprint(c, h100, 8, Duration::from_value(7200), 16, o);
    CHECK(to_json_string(*q.cost) == "32");
    CHECK(q.price_from == "a quote");
    o.pue = 0.5;
    CHECK_THROWS_WITH((void)run_footprint(c, h100, 8, Duration::from_value(7200), 16, o), doctest::Contains("pue"));
    // A price in another currency never sits under the _usd keys: null there, the figure and its
    // code under keys of their own (report/money_value.hpp).
    FootprintOptions eur;
    eur.price_per_gpu_hour = parse_money_rate("2 EUR/h", "price");
    Value j;
    footprint_output(j, run_footprint(c, h100, 1, Duration::from_value(3600), 1, eur));
    CHECK(member(j, "cost_usd").is_null());
    CHECK(std::get<Value::Exact>(member(j, "cost").data()).decimal == "2");
    CHECK(std::get<std::string>(member(j, "cost_currency").data()) == "EUR");
    CHECK(member(j, "price_per_gpu_hour_usd").is_null());
    CHECK(std::get<std::string>(member(j, "price_per_gpu_hour_currency").data()) == "EUR");
  }

  TEST_CASE("run footprint on a part without a published power: energy and carbon unknown, never 0; the rent still prices it") {
    const Catalog& c = Catalog::builtin();
    const GpuSpec& v6e = c.find_gpu("tpu-v6e");
    const ItPower p = gpu_it_power(v6e, 256);
    CHECK_FALSE(p.known);
    CHECK(p.basis.find("no published power figure") != std::string::npos);
    const RunFootprint f = run_footprint(c, v6e, 256, Duration::from_value(3600), 256);
    CHECK_FALSE(f.kwh.has_value());
    CHECK_FALSE(f.co2_kg.has_value());
    REQUIRE(f.cost);
    CHECK(to_json_string(*f.cost) == "691.2");  // 256 chip-hours at $2.70 (gcp-tpu-v6e, on demand)
    Value j;
    footprint_output(j, f);
    CHECK(std::holds_alternative<std::nullptr_t>(member(j, "energy_kwh").data()));
    CHECK(std::holds_alternative<std::nullptr_t>(member(j, "co2e_kg").data()));
    CHECK(std::holds_alternative<std::nullptr_t>(member(j, "it_power_w").data()));
    CHECK(gpu_it_power(c.find_gpu("h100-sxm"), 1).known);
  }

  TEST_CASE("training_output: the keys capplan train prints, each the report's figure") {
    const Catalog& c = Catalog::builtin();
    const GpuSpec& h100 = c.find_gpu("h100-sxm");
    const TransformerShape shape = find_model("llama2-7b").transformer();
    TrainingSetup s;
    const TrainingRunSearch best = best_training_run(shape, h100, 8, s);
    REQUIRE(best.run);
    const TrainingReport r = training_report(c, "llama2-7b", h100, 1e9, *best.run, true, s);
    CHECK(r.time.value() == doctest::Approx(best.run->time_for_tokens(1e9).value()));
    CHECK(r.fit.fits);
    CHECK(r.goodput.expected_wall_clock.value() >= r.time.value());
    // 14 B per parameter of a mixed-precision Adam checkpoint (plan/goodput.hpp).
    CHECK(r.goodput.checkpoint.value() == doctest::Approx(14.0 * static_cast<double>(parameter_count(shape))));
    const Value v = training_output(r, {"a note"});
    CHECK(keys_of(v) == std::vector<std::string>{"model", "gpu", "gpus", "tokens", "plan", "cluster", "flops_total", "time_s",
                                                 "iteration_time_s", "gpu_hours", "expected_wall_clock_s", "expected_gpu_hours", "goodput",
                                                 "tokens_per_s_per_gpu", "achieved_flop_per_s_per_gpu", "mfu", "hfu", "memory_per_gpu_bytes",
                                                 "fits", "tight", "it_power_w", "energy_kwh", "co2e_kg", "cost_usd", "price_per_gpu_hour_usd",
                                                 "price_kind", "billed_gpu_hours", "assumptions"});
    CHECK(std::get<std::int64_t>(member(v, "gpus").data()) == 8);
    CHECK(std::get<double>(member(v, "time_s").data()) == r.time.value());
    CHECK(std::get<double>(member(v, "energy_kwh").data()) == r.footprint.kwh);
    const Value& plan = member(v, "plan");
    CHECK(std::get<std::int64_t>(member(plan, "tp").data()) * std::get<std::int64_t>(member(plan, "pp").data()) *
              std::get<std::int64_t>(member(plan, "dp").data()) * std::get<std::int64_t>(member(plan, "cp").data()) ==
          8);
    CHECK(member(plan, "lora_rank").is_null());
    CHECK(member(member(v, "cluster"), "fabric").is_null());  // one node
    CHECK(std::get<Value::Exact>(member(v, "cost_usd").data()).decimal == to_json_string(r.footprint.cost->rounded_to(2)));
    CHECK(std::get<Value::Array>(member(v, "assumptions").data()).size() == 1);
    // Fewer tokens than nothing are refused, naming the field.
    CHECK_THROWS_WITH((void)training_report(c, "llama2-7b", h100, 0, *best.run, true, s), doctest::Contains("tokens"));
  }

  TEST_CASE("image_training_output: an image model's run has a whole run too, billed over its expected wall clock") {
    const Catalog c = one_gpu_catalog("a100-sxm-80gb");
    const GpuSpec& a100 = c.find_gpu("a100-sxm-80gb");
    const ImageModel& net = *find_image_model("resnet50");
    const perf::Cluster cl = perf::make_cluster(a100, 8, 8, perf::Link{});
    perf::DataPipeline host;
    host.cpu_cores = 128;
    const double images = 90.0 * imagenet_1k_train_images;
    const ImageTrainingReport r = image_training_report(c, "resnet50", net, cl, 256, Precision::bf16, host, images);
    // Checkpoints of the fp32 weights and the SGD momentum: 8 B per parameter (torchvision's reference recipe).
    CHECK(r.goodput.checkpoint.value() == doctest::Approx(8.0 * net.parameters));
    const GoodputEstimate g =
        estimate_goodput(r.time, 8, checkpoint_size(static_cast<std::int64_t>(net.parameters), 8.0), GoodputConfig{}, r.estimate.iteration);
    CHECK(r.goodput.expected_wall_clock.value() == doctest::Approx(g.expected_wall_clock.value()).epsilon(1e-12));
    // Checkpoints fall between iterations: a whole number of them.
    CHECK(r.goodput.interval_iterations >= 1);
    CHECK(r.goodput.checkpoint_interval.value() == doctest::Approx(r.goodput.interval_iterations * r.estimate.iteration.value()));
    CHECK(r.goodput.expected_wall_clock > r.time);
    // Energy over the expected wall clock, as a transformer's run is billed.
    REQUIRE(r.footprint.kwh);
    CHECK(*r.footprint.kwh == doctest::Approx((r.footprint.power.total * r.goodput.expected_wall_clock).value() / 3.6e6).epsilon(1e-9));
    const Value v = image_training_output(r);
    CHECK(std::get<double>(member(v, "expected_wall_clock_s").data()) == r.goodput.expected_wall_clock.value());
    CHECK(std::get<double>(member(v, "expected_gpu_hours").data()) == r.goodput.expected_gpu_hours);
    CHECK(std::get<double>(member(member(v, "goodput"), "checkpoint_bytes").data()) == r.goodput.checkpoint.value());
    // The goodput keys are training_output's, in the same order.
    const std::vector<std::string> keys = keys_of(v);
    const auto at = [&](std::string_view k) { return std::find(keys.begin(), keys.end(), k) - keys.begin(); };
    CHECK(at("gpu_hours") + 1 == at("expected_wall_clock_s"));
    CHECK(at("expected_wall_clock_s") + 1 == at("expected_gpu_hours"));
    CHECK(at("expected_gpu_hours") + 1 == at("goodput"));
    // Failures that outpace the checkpoints: refused, naming the field.
    GoodputConfig flaky;
    flaky.failures_per_gpu_hour = 50;
    CHECK(test_support::field_of([&] { (void)image_training_report(c, "resnet50", net, cl, 256, Precision::bf16, host, images, flaky); }) ==
          "failures_per_gpu_hour");
  }

  TEST_CASE("serving_output: times only where the layout fits; the cost of a million output tokens") {
    const Catalog& c = Catalog::builtin();
    const GpuSpec& h100 = c.find_gpu("h100-sxm");
    const TransformerShape shape = find_model("llama3.1-70b").transformer();
    ServingLoad load;
    load.batch = 32;
    const ServingReport r = serving_report(c, "llama3.1-70b", h100, serving_run(shape, h100, load, 4), load);
    REQUIRE(r.run.fit.fits);
    CHECK(r.output_tokens == 32.0 * 128);
    // price per GPU-hour x 4 GPUs / (decode tokens/s x 3600) x 1e6
    REQUIRE(r.cost_per_million_tokens);
    const double expect = r.footprint.price->amount().to_double() * 4 / (r.run.estimate.tokens_per_second * 3600) * 1e6;
    CHECK(r.cost_per_million_tokens->amount().to_double() == doctest::Approx(expect));
    const Value v = serving_output(r);
    CHECK(std::get<double>(member(v, "ttft_s").data()) == r.run.estimate.prefill.value());
    CHECK(std::get<double>(member(v, "output_tokens_per_s_per_gpu").data()) == doctest::Approx(4096 / r.run.estimate.total.value() / 4));
    // One GPU does not hold 70B in bf16: no time, what would fit instead.
    const ServingReport one = serving_report(c, "llama3.1-70b", h100, serving_run(shape, h100, load, 1), load);
    REQUIRE_FALSE(one.run.fit.fits);
    const Value n = serving_output(one, {}, {"--gpus 4"});
    CHECK(keys_of(n) == std::vector<std::string>{"model", "gpu", "plan", "memory_per_gpu_bytes", "fits", "would_fit", "assumptions"});
  }

  TEST_CASE("serving_output on a GPU with no compute rate: the decode's speed, no first token, no whole-load time or energy") {
    const Catalog& c = Catalog::builtin();
    const GpuSpec& spark = c.find_gpu("dgx-spark");
    const TransformerShape shape = find_model("qwen2.5-7b").transformer();
    ServingLoad load;
    load.weights = formats::q8_0;
    FootprintOptions priced;
    priced.price_per_gpu_hour = MoneyRate("0.50", Currency::USD);
    const ServingReport r = serving_report(c, "qwen2.5-7b", spark, serving_run(shape, spark, load), load, priced);
    REQUIRE(r.run.fit.fits);
    CHECK_FALSE(r.run.estimate.compute_timed);
    CHECK_FALSE(r.output_tokens_per_s_per_gpu());
    CHECK_FALSE(r.footprint.kwh);
    CHECK_FALSE(r.footprint.co2_kg);
    // The price of a million tokens at the decode's speed: $0.50 / (tokens/s x 3600) x 1e6.
    REQUIRE(r.cost_per_million_tokens);
    CHECK(r.cost_per_million_tokens->amount().to_double() == doctest::Approx(0.5 / (r.run.estimate.tokens_per_second * 3600) * 1e6));
    const Value v = serving_output(r);
    CHECK(std::get<bool>(member(v, "compute_timed").data()) == false);
    CHECK(member(v, "ttft_s").is_null());
    CHECK(member(v, "time_s").is_null());
    CHECK(member(v, "output_tokens_per_s_per_gpu").is_null());
    CHECK(member(v, "energy_kwh").is_null());
    CHECK(std::get<double>(member(v, "decode_tokens_per_s_per_sequence").data()) == r.run.estimate.tokens_per_second_per_sequence);
    // A rated GPU says so.
    const GpuSpec& h100 = c.find_gpu("h100-sxm");
    CHECK(std::get<bool>(member(serving_output(serving_report(c, "qwen2.5-7b", h100, serving_run(shape, h100, load), load)), "compute_timed").data()));
  }

  TEST_CASE("serving_run: eager serving's launch time per kernel, given, reaches the estimate; checked in the load") {
    const Catalog& c = Catalog::builtin();
    const GpuSpec& h200 = c.find_gpu("h200");
    const TransformerShape shape = find_model("llama3.1-8b").transformer();
    ServingLoad load;
    load.prompt = 64;
    load.eager = true;
    const ServingRun fitted = serving_run(shape, h200, load);
    load.eager_launch_time = from_canonical<Duration>(16.35e-6);  // half the fitted 32.7 us
    const ServingRun half = serving_run(shape, h200, load);
    // A host-bound decode step: half the launch time, half the step.
    CHECK(half.estimate.decode_step.value() == doctest::Approx(fitted.estimate.decode_step.value() / 2).epsilon(0.02));
    // Out of range, or without eager: an error naming the field.
    load.eager_launch_time = from_canonical<Duration>(2e-3);
    CHECK_THROWS_WITH_AS(load.validate(), doctest::Contains("eager_launch_time: 2 ms must be 0 to 1 ms"), InputError);
    load.eager_launch_time = from_canonical<Duration>(20e-6);
    load.eager = false;
    CHECK_THROWS_WITH_AS(load.validate(), doctest::Contains("eager_launch_time: 20 µs applies to eager serving"), InputError);
  }
}

// capplan memory's whole answer for programs (plan/memory_report.hpp, report/memory_output.hpp).
#include <capplan/plan/memory_report.hpp>

TEST_SUITE("report") {
  TEST_CASE("training_memory_output and serving_memory_output: capplan memory's keys, each the report's figure") {
    const Catalog& c = Catalog::builtin();
    const GpuSpec& h100 = c.find_gpu("h100-sxm");
    const TransformerShape shape = find_model("llama2-7b").transformer();
    TrainingConfig cfg;
    cfg.plan.dp = 8;
    cfg.plan.zero_stage = ZeroStage::parameters;
    cfg.flash_attention = true;
    const TrainingMemoryReport r = training_memory_report("llama2-7b", shape, h100, cfg);
    CHECK(r.budget.total().value() == training_budget(shape, cfg).total().value());
    CHECK(r.max_micro_batch == max_micro_batch(shape, cfg, h100.capacity(), 4096));
    REQUIRE(r.fewest);
    const Value v = training_memory_output(r, {"hint"}, {"note"});
    CHECK(keys_of(v) == std::vector<std::string>{"model", "gpu", "mode", "parameters", "plan", "pipeline_stage", "memory_per_gpu_bytes",
                                                 "breakdown", "gpu_memory_bytes", "fits", "tight", "headroom_bytes", "utilization",
                                                 "max_micro_batch", "min_gpus", "would_fit", "assumptions"});
    CHECK(std::get<std::string>(member(v, "mode").data()) == "train");
    CHECK(std::get<std::int64_t>(member(member(v, "plan"), "zero").data()) == 3);
    CHECK(std::get<std::string>(member(member(v, "plan"), "precision").data()) == "bf16");
    CHECK(std::get<std::int64_t>(member(member(v, "min_gpus"), "gpus").data()) == r.fewest->gpus);
    CHECK(std::get<double>(member(v, "memory_per_gpu_bytes").data()) == r.budget.total().value());

    InferenceConfig ic;
    ic.context = 4096;
    ic.sequences = 8;
    const ServingMemoryReport s = serving_memory_report("llama2-7b", shape, c.find_gpu("rtx-4090"), ic);
    CHECK(s.context == 4096);
    CHECK(s.max_batch == max_concurrent_sequences(shape, ic, c.find_gpu("rtx-4090").capacity(), 1 << 20));
    const Value sv = serving_memory_output(s);
    CHECK(std::get<std::string>(member(sv, "mode").data()) == "serve");
    CHECK(std::get<std::int64_t>(member(sv, "max_context").data()) == s.max_context);
    CHECK(std::get<std::int64_t>(member(member(sv, "plan"), "context").data()) == 4096);
  }
}


TEST_SUITE("report") {
  TEST_CASE("purchase table with exchange rates: offers in CNY converted to USD and ranked, with a break-even month") {
    PurchaseQuery q = train_query("llama2-7b", 1e9);
    q.filters.systems = false;
    q.filters.vendor = Vendor::nvidia;
    q.filters.form_factor = FormFactor::consumer;
    const PurchaseTable before = purchase_table(q, Catalog::builtin());
    // 1 USD = 7.2 CNY: the cheapest RTX 4090 rent becomes the CNY monthly rental, ¥2.74/h = $0.38/h.
    q.fx.emplace_back(Currency::CNY, Currency::USD, Decimal(1) / Decimal(std::string_view("7.2")), "2026-11-01", "test");
    const PurchaseTable after = purchase_table(q, Catalog::builtin());
    const PurchaseRow& b = row_of(before, "rtx-4090");
    const PurchaseRow& a = row_of(after, "rtx-4090");
    REQUIRE(a.rent_rate);
    REQUIRE(b.rent_rate);
    CHECK(a.rent_rate->currency() == Currency::USD);
    CHECK(a.rent_rate->amount() < b.rent_rate->amount());
    const auto cny = cheapest_rent(Catalog::builtin(), "rtx-4090", q.fx);
    REQUIRE(cny);
    REQUIRE(cny->converted);
    CHECK(cny->offer->currency == Currency::CNY);
    CHECK(a.rent_rate->amount() == (cny->per_gpu_hour.amount() * Decimal(a.units)));
    CHECK(a.rent_from.find("converted at 1 USD = 7.2 CNY (2026-11-01)") != std::string::npos);
    CHECK(a.break_even_month.has_value());
    // The row's own-versus-rent comparison is what its break-even month came from, and what the
    // compare report draws for it (cost_chart).
    const auto cmp = row_cost_comparison(a, q);
    REQUIRE(cmp);
    CHECK(cmp->break_even_month == a.break_even_month);
    CHECK(cmp->owned.purchase == *a.purchase);
    CHECK(cmp->months.size() == static_cast<std::size_t>(q.months) + 1);
    const LineChart chart = cost_chart(*cmp, "Own versus rent: rtx-4090");
    CHECK(chart.series.size() == 2);
    CHECK(chart.marker_x == static_cast<double>(*a.break_even_month));
    // Without a USD purchase price (a cloud row) there is nothing to compare.
    for (const PurchaseRow& r : after.rows) {
      if (!r.purchase) CHECK_FALSE(row_cost_comparison(r, q).has_value());
    }
    // Cloud rows in CNY join the ranking in USD; without a rate they stay in their own currency (the
    // candidates the table times, without timing them all again).
    PurchaseFilters cloud_only;
    cloud_only.gpus = cloud_only.systems = false;
    const auto rent_of = [&](const std::vector<ExchangeRate>& fx) {
      for (const auto& c : detail::candidates(Catalog::builtin(), cloud_only, fx))
        if (c.id == "alibaba-gn7-c13g1.26xlarge") return c.unit_rent;
      FAIL("no alibaba-gn7-c13g1.26xlarge candidate");
      return std::optional<MoneyRate>();
    };
    const auto in_usd = rent_of(q.fx), as_quoted = rent_of({});
    REQUIRE(in_usd);
    REQUIRE(as_quoted);
    CHECK(in_usd->currency() == Currency::USD);
    CHECK(as_quoted->currency() == Currency::CNY);
    CHECK(in_usd->amount() == convert(*as_quoted, q.fx.front()).amount());  // 252.66 CNY/h / 7.2
    // A rate that does not convert into USD, or two for one currency, is refused naming the field.
    PurchaseQuery bad = q;
    bad.fx.emplace_back(Currency::CNY, Currency::USD, Decimal(std::string_view("0.14")), "2026-11-02", "test");
    CHECK_THROWS_WITH((void)purchase_table(bad, Catalog::builtin()), doctest::Contains("fx"));
    bad.fx = {ExchangeRate(Currency::USD, Currency::EUR, Decimal(std::string_view("0.9")), "2026-11-01", "test")};
    CHECK_THROWS_WITH((void)purchase_table(bad, Catalog::builtin()), doctest::Contains("must convert into USD"));
  }
}

#include <capplan/report/catalog_output.hpp>

TEST_SUITE("report") {
  TEST_CASE("money in another currency never sits under a key that names USD (issue 16)") {
    // A cell: no value under its column (it neither sorts nor ranks with the USD figures) ...
    const Cell cny = Cell::of_other_currency("50000.00 CNY", "50000.00", "CNY");
    CHECK(std::holds_alternative<std::nullptr_t>(machine_value(cny).data()));
    CHECK_FALSE(cny.number.has_value());
    // ... and in every machine form two columns of its own after it, null in the rows in USD.
    CHECK(other_currency_keys("rent_cost_usd") == std::pair<std::string, std::string>{"rent_cost", "rent_cost_currency"});
    CHECK(other_currency_keys("rent_usd_per_h") == std::pair<std::string, std::string>{"rent_per_h", "rent_per_h_currency"});
    CHECK(other_currency_keys("price") == std::pair<std::string, std::string>{"price_amount", "price_currency"});
    CHECK_THROWS_WITH((void)Cell::of_other_currency("1 x", "1", "cny"), doctest::Contains("currency: \"cny\" is not a currency code"));
    CHECK(other_currency_keys("usd_per_gb") == std::pair<std::string, std::string>{"per_gb", "per_gb_currency"});  // never names USD
    Table t;
    t.columns = {{"option", "Option", Align::left}, {"rent_cost_usd", "Rent", Align::right}, {"gpus", "GPUs", Align::right}};
    t.add_row({Cell::of_text("us"), Cell::of_money("$12", "12.00", 12.0), Cell::of_number("1", 1)});
    t.add_row({Cell::of_text("cn"), cny, Cell::of_number("2", 2)});
    CHECK(render_csv(t) == "option,rent_cost_usd,rent_cost,rent_cost_currency,gpus\r\nus,12.00,,,1\r\ncn,,50000.00,CNY,2\r\n");
    const std::string json = render_json(t);
    CHECK(json.find("{\"option\": \"us\", \"rent_cost_usd\": \"12.00\", \"rent_cost\": null, \"rent_cost_currency\": null, \"gpus\": 1}") !=
          std::string::npos);
    CHECK(json.find("{\"option\": \"cn\", \"rent_cost_usd\": null, \"rent_cost\": \"50000.00\", \"rent_cost_currency\": \"CNY\", \"gpus\": 2}") !=
          std::string::npos);
    const Value out = table_rows_output(t);
    const auto& rows = std::get<Value::Array>(out.data());
    CHECK(keys_of(rows.at(1)) == std::vector<std::string>{"option", "rent_cost_usd", "rent_cost", "rent_cost_currency", "gpus"});
    // A table without such a cell keeps its columns; the text a person reads is unchanged.
    Table usd_only = t;
    usd_only.rows.pop_back();
    CHECK(machine_table(usd_only).columns.size() == 3);
    CHECK(render_text(t).find("50000.00 CNY") != std::string::npos);
    // A column already named like the extra keys is refused, naming it, not written twice.
    Table clash = t;
    clash.columns.push_back({"rent_cost", "Other", Align::right});
    for (auto& row : clash.rows) row.push_back(Cell::empty());
    CHECK_THROWS_WITH((void)render_csv(clash), doctest::Contains("\"rent_cost\" is a column already"));
    // A column for programs only (the currency a price's symbol shows): in CSV and JSON, not in text.
    Table cur;
    cur.columns = {{"id", "Id", Align::left}, {"price", "Price", Align::right}, {"currency", "Currency", Align::left, true}};
    cur.add_row({Cell::of_text("a"), Cell::of_money("¥2,000.00", "2000", 2000), Cell::of_text("CNY")});
    CHECK(render_csv(cur) == "id,price,currency\r\na,2000,CNY\r\n");
    CHECK(render_json(cur).find("\"currency\": \"CNY\"") != std::string::npos);
    CHECK(render_text(cur).find("CNY") == std::string::npos);
    CHECK(render_markdown(cur).find("Currency") == std::string::npos);
    CHECK(render_html(cur).find("Currency") == std::string::npos);
    CHECK(human_table(cur).columns.size() == 2);
    // Objects (train, infer, compare --format json): the same keys, only where such a figure is.
    Value o = Value::Object{};
    detail::put_usd(o, "cost_usd", std::optional(Money("1864.51", Currency::CNY)));
    detail::put_usd(o, "price_per_gpu_hour_usd", std::optional(Money("2.50", Currency::USD)));
    detail::put_usd(o, "rent_usd_per_h", std::optional<Money>());
    CHECK(keys_of(o) == std::vector<std::string>{"cost_usd", "cost", "cost_currency", "price_per_gpu_hour_usd", "rent_usd_per_h"});
    CHECK(member(o, "cost_usd").is_null());
    CHECK(std::get<Value::Exact>(member(o, "cost").data()).decimal == "1864.51");
    CHECK(std::get<std::string>(member(o, "cost_currency").data()) == "CNY");
    CHECK(std::get<Value::Exact>(member(o, "price_per_gpu_hour_usd").data()).decimal == "2.5");
    CHECK(member(o, "rent_usd_per_h").is_null());
  }

  TEST_CASE("table_rows_output, gpu_output and training_no_fit_output: catalog list, catalog show and train's keys") {
    Table t;
    t.columns = {{"id", "GPU", Align::left}, {"memory_bytes", "Memory", Align::right}, {"price", "Price", Align::right}, {"note", "Note", Align::left}};
    t.add_row({Cell::of_text("h100"), Cell::of_number("80 GB", 80e9), Cell::of_money("$25,000.00", "25000", 25000), Cell::empty()});
    const Value rows = table_rows_output(t);
    const Value& r0 = std::get<Value::Array>(rows.data()).front();
    CHECK(keys_of(r0) == std::vector<std::string>{"id", "memory_bytes", "price", "note"});
    CHECK(std::get<std::string>(member(r0, "id").data()) == "h100");
    CHECK(std::get<double>(member(r0, "memory_bytes").data()) == 80e9);
    CHECK(std::get<Value::Exact>(member(r0, "price").data()).decimal == "25000");
    CHECK(member(r0, "note").is_null());

    const GpuSpec& h100 = Catalog::builtin().find_gpu("h100-sxm");
    const Value g = gpu_output(h100);
    CHECK(keys_of(g) == std::vector<std::string>{"id", "name", "memory_bytes", "usable_memory_bytes", "memory_bandwidth_bytes_per_s", "tdp_w",
                                                 "dense_flop_per_s", "slot_width", "length_m", "cooling", "board_gpus", "launch_price", "street_price",
                                                 "unpriced", "source", "as_of"});
    CHECK(std::get<double>(member(g, "tdp_w").data()) == h100.tdp.value());
    CHECK(std::get<std::int64_t>(member(g, "board_gpus").data()) == 4);  // HGX H100 4-GPU, the smallest board
    CHECK(member(gpu_output(Catalog::builtin().find_gpu("rtx-4090")), "board_gpus").is_null());
    // Prices as exact decimals with their range, date and source; the reason only where neither price is given.
    CHECK(member(g, "launch_price").is_null());
    CHECK(std::get<Value::Exact>(member(member(g, "street_price"), "amount").data()).decimal == "28750");
    CHECK(std::get<Value::Exact>(member(member(g, "street_price"), "high").data()).decimal == "31904.63");
    CHECK(std::get<std::string>(member(member(g, "street_price"), "currency").data()) == "USD");
    CHECK(member(g, "unpriced").is_null());
    CHECK(std::get<std::string>(member(gpu_output(Catalog::builtin().find_gpu("gb300")), "unpriced").data()).find("NVL72") != std::string::npos);
    CHECK(std::get<double>(member(member(g, "dense_flop_per_s"), "bf16").data()) == h100.dense.at(Precision::bf16)->value());
    GpuSpec unpublished = h100;
    unpublished.tdp = Power::from_value(0);
    unpublished.usable_memory.reset();
    CHECK(member(gpu_output(unpublished), "tdp_w").is_null());
    CHECK(member(gpu_output(unpublished), "usable_memory_bytes").is_null());

    const Value w = warnings_output({CatalogWarning{WarningKind::sparse_rate, "gpu x", "dense.bf16", "gpu x: looks sparse"}});
    const Value& w0 = std::get<Value::Array>(w.data()).front();
    CHECK(keys_of(w0) == std::vector<std::string>{"kind", "entry", "field", "message"});
    CHECK(std::get<std::string>(member(w0, "kind").data()) == "sparse_rate");

    const Value n = training_no_fit_output("llama2-70b", "rtx-4090", 2, DataSize::from_value(70e9), {"8 GPUs"});
    CHECK(keys_of(n) == std::vector<std::string>{"model", "gpu", "gpus", "fits", "plan", "least_memory_per_gpu_bytes", "would_fit"});
    CHECK(std::get<bool>(member(n, "fits").data()) == false);
    CHECK(member(n, "plan").is_null());
  }
}

TEST_SUITE("report") {
  TEST_CASE("rents billed as sold: a short run pays a reserved term or a month in full, and the cheapest bill wins") {
    using namespace capplan::literals;
    const Catalog& c = Catalog::builtin();
    // MI350X: DigitalOcean's 12-month reservation is its only offer; a 10 h run on 8 GPUs pays the year:
    // 8 x 8,760 h = 70,080 GPU-hours x $4.76 = $333,580.80.
    const RunFootprint mi = run_footprint(c, c.find_gpu("mi350x"), 8, 10_h, 80);
    REQUIRE(mi.cost);
    REQUIRE(mi.price_kind);
    CHECK(*mi.price_kind == PriceKind::reserved);
    CHECK(mi.billed_gpu_hours == doctest::Approx(70080));
    CHECK(to_json_string(*mi.cost) == "333580.8");
    CHECK(mi.price_from.find("billed 8,760 h (its 1-year term) for a 10 h run") != std::string::npos);
    // A run past the term pays its own hours.
    const RunFootprint long_run = run_footprint(c, c.find_gpu("mi350x"), 8, 10000_h, 80000);
    CHECK(long_run.billed_gpu_hours == doctest::Approx(80000));
    CHECK(long_run.price_from.find("billed") == std::string::npos);
    // Trainium2: an EC2 Capacity Block from one day; 16 chips for 10 h pay one block, $35.7608 x 24 h.
    const RunFootprint trn = run_footprint(c, c.find_gpu("trainium2"), 16, 10_h, 160);
    REQUIRE(trn.cost);
    CHECK(to_json_string(*trn.cost) == "858.2592");
    CHECK(trn.price_from.find("billed 24 h (whole days) for a 10 h run") != std::string::npos);
    // 30 h pay two whole days (blocks are booked in days), not 30 h.
    const RunFootprint trn30 = run_footprint(c, c.find_gpu("trainium2"), 16, 30_h, 480);
    REQUIRE(trn30.cost);
    CHECK(trn30.billed_gpu_hours == doctest::Approx(16 * 48));
    CHECK(to_json_string(*trn30.cost) == "1716.5184");
    // Whole instances: 20 chips rent two trn2.48xlarge of 16, 32 chips billed for the day.
    const RunFootprint trn20 = run_footprint(c, c.find_gpu("trainium2"), 20, 10_h, 200);
    REQUIRE(trn20.cost);
    CHECK(trn20.billed_gpu_hours == doctest::Approx(32 * 24));
    CHECK(*trn20.cost == *trn.cost * Decimal(2));
    CHECK(trn20.price_from.find("2 whole instances of 16 GPUs (32) for 20") != std::string::npos);
    // DigitalOcean rents MI350X one GPU at a time: 3 GPUs pay for 3.
    const RunFootprint three = run_footprint(c, c.find_gpu("mi350x"), 3, 10000_h, 30000);
    CHECK(three.billed_gpu_hours == doctest::Approx(30000));
    CHECK(three.price_from.find("whole instance") == std::string::npos);
    Value j;
    footprint_output(j, trn);
    CHECK(std::get<std::string>(member(j, "price_kind").data()) == "reserved");
    CHECK(std::get<double>(member(j, "billed_gpu_hours").data()) == doctest::Approx(384));
    // A given price has no kind and bills the run's GPU-hours.
    FootprintOptions given;
    given.price_per_gpu_hour = parse_money_rate("$2/h", "price");
    const RunFootprint g = run_footprint(c, c.find_gpu("mi350x"), 8, 10_h, 80, given);
    CHECK_FALSE(g.price_kind);
    CHECK(g.billed_gpu_hours == doctest::Approx(80));
    // Without a run (a rate compared per hour) reserved-only offers are left out, as before: what
    // infer and compare --serve price a rate of work at (bill_as_sold off), never a term.
    CHECK_FALSE(cheapest_rent(c, "mi350x"));
    FootprintOptions hourly;
    hourly.bill_as_sold = false;
    const RunFootprint none = run_footprint(c, c.find_gpu("mi350x"), 8, 10_h, 80, hourly);
    CHECK_FALSE(none.price);
    CHECK(none.no_price_why == "do-mi350x (reserved only: a commitment, not an hourly price)");
    // An offer in another currency without a rate is named with the flag that converts it.
    const RunFootprint a800 = run_footprint(c, c.find_gpu("a800-sxm4-80gb"), 1, 10_h, 10);
    CHECK_FALSE(a800.price);
    CHECK(a800.no_price_why == "autodl-a800 (in CNY: --fx CNY=RATE@DATE converts it)");
    FootprintOptions cny;
    cny.fx.emplace_back(Currency::CNY, Currency::USD, Decimal(1) / Decimal(std::string_view("7.2")), "2026-11-01", "test");
    CHECK(run_footprint(c, c.find_gpu("a800-sxm4-80gb"), 1, 10_h, 10, cny).price);
    const RunFootprint h100 = run_footprint(c, c.find_gpu("h100-sxm"), 8, Duration::from_value(5), 8 * 5 / 3600.0, hourly);
    REQUIRE(h100.price_kind);
    CHECK(*h100.price_kind == PriceKind::on_demand);
    CHECK(h100.billed_gpu_hours == doctest::Approx(8 * 5 / 3600.0));
    REQUIRE(cheapest_rent(c, "mi350x", {}, 10_h));
  }

  TEST_CASE("a monthly rent bills whole months: cheapest per hour, yet not for a short run") {
    using namespace capplan::literals;
    Catalog c = Catalog::make_builtin();
    // A monthly offer cheaper per hour than every hourly one: $300 a month = $0.41/h.
    CloudOffer m;
    m.id = "test-monthly-4090";
    m.provider = "Test";
    m.instance_type = "1 x RTX 4090, monthly";
    m.gpu_id = "rtx-4090";
    m.monthly = Money("300", Currency::USD);
    m.as_of = "2026-11-01";
    m.source = "a test";
    c.add_or_replace(m);
    const auto per_hour = cheapest_rent(c, "rtx-4090");
    REQUIRE(per_hour);
    CHECK(per_hour->offer->id == "test-monthly-4090");
    // 12 h: a month's rent ($300) against 12 h of the cheapest hourly offer: the hourly one.
    const auto short_run = cheapest_rent(c, "rtx-4090", {}, 12_h);
    REQUIRE(short_run);
    CHECK(short_run->kind != PriceKind::monthly);
    // 700 h: the month is the cheaper bill; 731 h bills two months.
    const auto month = cheapest_rent(c, "rtx-4090", {}, 700_h);
    REQUIRE(month);
    CHECK(month->offer->id == "test-monthly-4090");
    CHECK(month->billed.value() == doctest::Approx(730 * 3600.0));
    CHECK(month->source().find("billed 730 h (whole months) for a 700 h run") != std::string::npos);
    // The purchase table: a short run's rent for the 4090 row is hourly; the break-even rents as the offer sells.
    PurchaseQuery q = train_query("llama2-7b", 1e9);
    q.filters.systems = false;
    q.filters.cloud = false;
    q.filters.vendor = Vendor::nvidia;
    q.filters.form_factor = FormFactor::consumer;
    const PurchaseTable t = purchase_table(q, c);
    const PurchaseRow& r = row_of(t, "rtx-4090");
    REQUIRE(r.rent_cost);
    CHECK(r.rent_kind != PriceKind::monthly);
    REQUIRE(r.goodput);  // on demand: the expected wall clock, failures, restarts and checkpoints included
    CHECK(r.rent_billed.value() == doctest::Approx(r.goodput->expected_wall_clock.value()));
    PurchaseRow monthly = r;
    monthly.rent_kind = PriceKind::monthly;
    monthly.rent_min_term.reset();
    monthly.rent_rate = MoneyRate(Decimal(300) / Decimal(730), Currency::USD);
    const auto cmp = row_cost_comparison(monthly, q);
    REQUIRE(cmp);
    CHECK(cmp->rented.kind == PriceKind::monthly);
    CHECK(cmp->rented_month_costs.cost == Money("300", Currency::USD));  // a whole month at any use below 100 %
  }

  TEST_CASE("purchase table: a reserved-only GPU rents at its term for a training run, and says so") {
    PurchaseQuery q = train_query("llama2-7b", 1e9);
    q.filters.systems = false;
    q.filters.cloud = false;
    q.filters.vendor = Vendor::amd;
    const PurchaseTable t = purchase_table(q, Catalog::builtin());
    const PurchaseRow& r = row_of(t, "mi350x");
    REQUIRE(r.estimated());
    REQUIRE(r.rent_cost);
    CHECK(r.rent_kind == PriceKind::reserved);
    CHECK(r.rent_offer == "do-mi350x");
    CHECK(r.rent_billed.value() == doctest::Approx(8760 * 3600.0));
    REQUIRE(r.gpus == 1);
    CHECK(to_json_string(*r.rent_cost) == "41697.6");  // $4.76 x 8,760 h
    CHECK(r.rent_from.find("its 1-year term") != std::string::npos);
    const Value j = t.output();
    bool seen = false;
    for (const Value& e : std::get<Value::Array>(member(j, "rows").data())) {
      if (std::get<std::string>(member(e, "option").data()) != "mi350x") continue;
      seen = true;
      CHECK(std::get<std::string>(member(e, "rent_kind").data()) == "reserved");
      CHECK(std::get<double>(member(e, "rent_billed_hours").data()) == doctest::Approx(8760));
    }
    CHECK(seen);
    bool noted = false;
    for (const std::string& n : t.assumptions) noted = noted || n.find("mi350x (do-mi350x): reserved, at least its 1-year term") != std::string::npos;
    CHECK(noted);
  }
}

#include <capplan/plan/catalog_tco.hpp>

TEST_SUITE("report") {
  TEST_CASE("catalog_tco: the figures compare's GPU rows use, for owning N GPUs against renting as many") {
    const Catalog& c = Catalog::builtin();
    const GpuSpec& rtx = c.find_gpu("rtx-4090");
    const CatalogTco t = catalog_tco(c, rtx, 2);
    // Two at the street price (a range: both ends doubled), the GPUs only.
    REQUIRE(t.purchase);
    REQUIRE(rtx.street_price);
    CHECK(*t.purchase == rtx.street_price->amount * Decimal(2));
    REQUIRE(t.purchase_high);
    CHECK(*t.purchase_high == *rtx.street_price->high * Decimal(2));
    CHECK(t.price_source.find("street price " + rtx.street_price->as_of) == 0);
    CHECK(t.price_source.find(" x 2") != std::string::npos);
    CHECK(t.bought_gpus == 0);  // cards are bought one at a time
    // Modules buy whole baseboards: 2 H100 SXM are a board of 4 (the H100 datasheet's HGX with 4 or 8 GPUs).
    const GpuSpec& h100 = c.find_gpu("h100-sxm");
    const CatalogTco m = catalog_tco(c, h100, 2);
    CHECK(m.bought_gpus == 4);
    CHECK(*m.purchase == h100.street_price->amount * Decimal(4));
    CHECK(m.price_source.find("4 bought for the 2 used") != std::string::npos);
    CHECK(m.power.total.value() == doctest::Approx(gpu_it_power(h100, 2, {}, 8).total.value()));
    CHECK(catalog_tco(c, h100, 8).bought_gpus == 0);
    // Busy power as train counts it: (2 x 450 W + one 218 W desktop host) / 0.9.
    CHECK(t.power.total.value() == doctest::Approx(gpu_it_power(rtx, 2).total.value()));
    CHECK(t.power.total.value() == doctest::Approx((2 * 450.0 + 218.0) / 0.9).epsilon(0.01));
    // The rent is cheapest_rent's for two GPUs and a month of use, copied out of the catalog.
    const auto r = cheapest_rent(c, rtx.id, {}, Duration::from_value(scale::month), 2);
    REQUIRE(r);
    REQUIRE(t.rent_per_gpu_hour);
    CHECK(*t.rent_per_gpu_hour == r->per_gpu_hour);
    CHECK(t.rent_kind == r->kind);
    CHECK(t.rent_billed_gpus == 2);
    CHECK(t.rent_offer == r->offer->id);
    CHECK(t.rent_source == "runpod-rtx-4090 (on_demand, 2026-03-10)");
    CHECK(t.rent_left_out.empty());
    const auto ro = rented_option(t);
    REQUIRE(ro);
    CHECK(ro->kind == PriceKind::on_demand);
    CHECK(ro->hourly == r->per_gpu_hour * Decimal(2));
    CHECK_FALSE(t.launch_price);
    // Whole instances: an offer sold only in 8-GPU instances bills 16 for 12.
    Catalog eight = Catalog::make_builtin();
    GpuSpec mine = rtx;
    mine.id = "my-card";
    mine.name = "My Card";
    mine.aliases = {};
    eight.add_or_replace(mine);
    eight.add_or_replace(CloudOffer{.id = "x-8", .provider = "X", .instance_type = "eight", .gpu_count = 8, .gpu_id = "my-card",
                                    .on_demand = MoneyRate("8.00", Currency::USD), .as_of = "2026-11-01", .source = "test"});
    const CatalogTco twelve = catalog_tco(eight, eight.find_gpu("my-card"), 12);
    CHECK(twelve.rent_billed_gpus == 16);
    CHECK(*twelve.rent_per_gpu_hour == MoneyRate("1.00", Currency::USD));
    CHECK(twelve.rent_source == "x-8 (on_demand, 2026-11-01), 2 whole instances of 8 GPUs (16) for 12");
    CHECK(rented_option(twelve)->hourly == MoneyRate("16.00", Currency::USD));
    // The rent is chosen for the hours used: a monthly rental of the instance beats the hourly price only
    // when the GPUs are busy enough ($300 a month against $0.50 an hour: 600 h, 82 % of a month).
    eight.add_or_replace(CloudOffer{.id = "x-month", .provider = "X", .instance_type = "month", .gpu_count = 1, .gpu_id = "my-card",
                                    .monthly = Money("300", Currency::USD), .as_of = "2026-11-01", .source = "test"});
    eight.add_or_replace(CloudOffer{.id = "x-hour", .provider = "X", .instance_type = "hour", .gpu_count = 1, .gpu_id = "my-card",
                                    .on_demand = MoneyRate("0.50", Currency::USD), .as_of = "2026-11-01", .source = "test"});
    const CatalogTco busy = catalog_tco(eight, eight.find_gpu("my-card"), 1, 1.0);
    CHECK(busy.rent_offer == "x-month");
    CHECK(busy.rent_kind == PriceKind::monthly);
    const auto monthly = rented_option(busy);
    REQUIRE(monthly);
    CHECK(monthly->kind == PriceKind::monthly);
    CHECK(*monthly->monthly == Money("300", Currency::USD));
    const CatalogTco idle = catalog_tco(eight, eight.find_gpu("my-card"), 1, 0.3);
    CHECK(idle.rent_offer == "x-hour");
    CHECK(rented_option(idle)->hourly == MoneyRate("0.50", Currency::USD));
    CHECK_THROWS_WITH((void)catalog_tco(eight, eight.find_gpu("my-card"), 1, 0.0), doctest::Contains("utilization"));
    // Without a price, a power figure or a USD rent: absent, and the rent says why.
    const CatalogTco a800 = catalog_tco(c, c.find_gpu("a800-sxm4-80gb"), 1);
    CHECK_FALSE(a800.rent_per_gpu_hour);
    REQUIRE_FALSE(a800.rent_left_out.empty());
    CHECK(a800.rent_left_out.front().find("autodl-a800 (in CNY") == 0);
    CHECK_FALSE(catalog_tco(c, c.find_gpu("gb300"), 1).purchase);
    CHECK_FALSE(rented_option(a800));
    CHECK(catalog_tco(c, c.find_gpu("gaudi3"), 1).launch_price);
    CHECK_FALSE(catalog_tco(c, c.find_gpu("tpu-v5e"), 1).power.known);
    CHECK_THROWS_WITH((void)catalog_tco(c, rtx, 0), doctest::Contains("gpus"));
    CHECK_THROWS_WITH((void)catalog_tco(c, rtx, (1 << 20) + 1), doctest::Contains("1,048,576"));
  }
}
