// The HTML report: one self-contained page (no network fetch, no external script, style or font;
// it opens from disk and prints) with the tables, their charts (report/chart.hpp, inline SVG), the
// notes, and the arithmetic when asked. Tables sort by any column (click a header) and filter by
// text and by the values of their Kind, Vendor, Form factor and Fits columns; Pareto rows are
// marked. The address can carry a view: report.html#sort=time_s&dir=desc&filter=h100 sorts and
// filters on load, so a view can be shared as a link.
//
//   HtmlReport page;
//   page.title = "Training llama2-7b on 1B tokens";
//   page.tables = {t};  page.charts = {render_svg(scatter_chart(t, "time_s", {"own_cost_usd"}, "option"))};
//   std::string html = render_html_page(page);
#pragma once

#include "capplan/detail/text.hpp"
#include "capplan/report/render.hpp"
#include "capplan/report/table.hpp"

#include <cmath>
#include <sstream>
#include <string>
#include <vector>

namespace capplan {

struct HtmlReport {
  std::string title;
  std::vector<Table> tables;
  std::vector<std::string> charts;       // SVG documents, shown after the first table
  // Further pictures of the same kind, one per row beyond the first few (compare: own versus rent
  // for every row with a price and a rent), folded under `more_title` after the tables.
  std::vector<std::string> more_charts;
  std::string more_title = "More charts";
  std::vector<std::string> explanation;  // lines of arithmetic (--explain), shown last
  std::string generator = "capplan";     // named in the footer
};

namespace detail {

inline constexpr const char* report_css = R"CSS(
:root { --ink: #1b1b1b; --muted: #5b5b5b; --line: #d9d9d9; --band: #f6f7f9; --mark: #fff4d6; --accent: #1f5fbf; }
* { box-sizing: border-box; }
body { margin: 0 auto; max-width: 1200px; padding: 16px; color: var(--ink); font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; }
h1 { font-size: 1.45rem; margin: 0.2em 0 0.6em; }
h2 { font-size: 1.1rem; margin: 1.6em 0 0.4em; }
.scroll { overflow-x: auto; border: 1px solid var(--line); border-radius: 6px; }
table.capplan { border-collapse: collapse; width: 100%; font-variant-numeric: tabular-nums; }
table.capplan th, table.capplan td { padding: 5px 9px; border-bottom: 1px solid var(--line); white-space: nowrap; text-align: left; }
table.capplan td.num, table.capplan th.num { text-align: right; }
table.capplan thead th { position: sticky; top: 0; background: #eef1f5; cursor: pointer; user-select: none; }
table.capplan thead th[aria-sort="ascending"]::after { content: " \25B2"; font-size: 0.75em; }
table.capplan thead th[aria-sort="descending"]::after { content: " \25BC"; font-size: 0.75em; }
table.capplan tbody tr:nth-child(even) { background: var(--band); }
table.capplan tbody tr.pareto td:first-child { font-weight: 600; }
table.capplan tbody tr.pareto { background: var(--mark); }
table.capplan caption { caption-side: top; text-align: left; font-weight: 600; padding: 6px 2px; }
.toolbar { display: flex; flex-wrap: wrap; gap: 8px 14px; align-items: center; margin: 6px 0; color: var(--muted); }
.toolbar input, .toolbar select { font: inherit; padding: 3px 6px; border: 1px solid var(--line); border-radius: 4px; }
.legend { color: var(--muted); font-size: 0.9em; margin: 4px 0; }
.charts { display: grid; grid-template-columns: repeat(auto-fit, minmax(320px, 1fr)); gap: 14px; margin: 14px 0; }
.charts svg { width: 100%; max-width: 760px; height: auto; border: 1px solid var(--line); border-radius: 6px; }
details.more > summary { cursor: pointer; font-weight: 600; margin: 14px 0 0; }
ul.notes { color: var(--muted); padding-left: 1.2em; }
pre.explain { background: var(--band); padding: 10px; overflow-x: auto; border-radius: 6px; }
footer { color: var(--muted); font-size: 0.85em; margin-top: 2em; border-top: 1px solid var(--line); padding-top: 8px; }
@media (max-width: 640px) { body { padding: 8px; font-size: 13px; } table.capplan th, table.capplan td { padding: 4px 6px; } }
@media print { .toolbar { display: none; } table.capplan thead th { position: static; } .scroll { overflow: visible; border: 0; }
  body { max-width: none; } .charts { grid-template-columns: 1fr 1fr; } a { color: inherit; text-decoration: none; } }
)CSS";

// Sorting (numbers by their data-v value, text otherwise; empty cells last), the filters, and the
// view in the address (#sort=KEY&dir=asc|desc&filter=TEXT).
inline constexpr const char* report_js = R"JS(
(function () {
  function cellValue(td) { var v = td.getAttribute('data-v'); return v === null ? null : parseFloat(v); }
  function sortTable(table, col, dir) {
    var body = table.tBodies[0], rows = Array.prototype.slice.call(body.rows);
    rows.sort(function (a, b) {
      var x = a.cells[col], y = b.cells[col], vx = cellValue(x), vy = cellValue(y);
      if (vx !== null && vy !== null) return dir === 'asc' ? vx - vy : vy - vx;
      if (vx !== null) return -1;
      if (vy !== null) return 1;
      var tx = x.textContent, ty = y.textContent;
      if (tx === '\u2013' || tx === '') return ty === '\u2013' || ty === '' ? 0 : 1;
      if (ty === '\u2013' || ty === '') return -1;
      return dir === 'asc' ? tx.localeCompare(ty) : ty.localeCompare(tx);
    });
    rows.forEach(function (r) { body.appendChild(r); });
    Array.prototype.forEach.call(table.tHead.rows[0].cells, function (th, i) {
      if (i === col) th.setAttribute('aria-sort', dir === 'asc' ? 'ascending' : 'descending'); else th.removeAttribute('aria-sort');
    });
  }
  function applyFilters(table) {
    var bar = table.parentNode.previousElementSibling, text = '', selects = [];
    if (bar && bar.classList.contains('toolbar')) {
      text = bar.querySelector('input').value.toLowerCase();
      selects = Array.prototype.slice.call(bar.querySelectorAll('select'));
    }
    Array.prototype.forEach.call(table.tBodies[0].rows, function (r) {
      var show = !text || r.textContent.toLowerCase().indexOf(text) >= 0;
      selects.forEach(function (s) { if (s.value && r.cells[+s.getAttribute('data-col')].textContent.trim() !== s.value) show = false; });
      r.hidden = !show;
    });
  }
  var filterable = /^(kind|vendor|form factor|fits|set|source)$/i;
  Array.prototype.forEach.call(document.querySelectorAll('table.capplan'), function (table) {
    var heads = table.tHead.rows[0].cells;
    Array.prototype.forEach.call(heads, function (th, i) {
      th.tabIndex = 0;
      function go() { sortTable(table, i, th.getAttribute('aria-sort') === 'ascending' ? 'desc' : 'asc'); }
      th.addEventListener('click', go);
      th.addEventListener('keydown', function (e) { if (e.key === 'Enter' || e.key === ' ') { e.preventDefault(); go(); } });
    });
    if (table.tBodies[0].rows.length < 8) return;
    var bar = document.createElement('div');
    bar.className = 'toolbar';
    var input = document.createElement('input');
    input.type = 'search'; input.placeholder = 'Filter rows'; input.setAttribute('aria-label', 'Filter rows');
    input.addEventListener('input', function () { applyFilters(table); });
    bar.appendChild(input);
    Array.prototype.forEach.call(heads, function (th, i) {
      if (!filterable.test(th.textContent.trim())) return;
      var seen = {}, values = [];
      Array.prototype.forEach.call(table.tBodies[0].rows, function (r) { var v = r.cells[i].textContent.trim(); if (v && !seen[v]) { seen[v] = 1; values.push(v); } });
      if (values.length < 2) return;
      var label = document.createElement('label'), s = document.createElement('select');
      s.setAttribute('data-col', i);
      s.innerHTML = '<option value="">all</option>';
      values.sort().forEach(function (v) { var o = document.createElement('option'); o.value = v; o.textContent = v; s.appendChild(o); });
      s.addEventListener('change', function () { applyFilters(table); });
      label.textContent = th.textContent.trim() + ' ';
      label.appendChild(s);
      bar.appendChild(label);
    });
    table.parentNode.parentNode.insertBefore(bar, table.parentNode);
  });
  var view = {};
  location.hash.replace(/^#/, '').split('&').forEach(function (kv) { var p = kv.split('='); if (p[0]) view[p[0]] = decodeURIComponent(p[1] || ''); });
  if (view.sort || view.filter) {
    Array.prototype.forEach.call(document.querySelectorAll('table.capplan'), function (table) {
      if (view.sort) Array.prototype.forEach.call(table.tHead.rows[0].cells, function (th, i) {
        if (th.getAttribute('data-key') === view.sort) sortTable(table, i, view.dir === 'desc' ? 'desc' : 'asc');
      });
      if (view.filter) {
        var bar = table.parentNode.previousElementSibling;
        if (bar && bar.classList.contains('toolbar')) { bar.querySelector('input').value = view.filter; applyFilters(table); }
      }
    });
  }
  document.documentElement.setAttribute('data-ready', '1');
})();
)JS";

// A table with the attributes the script reads: data-key per header, data-v per numeric cell.
inline std::string report_table(const Table& table) {
  const Table t = human_table(table);
  std::ostringstream os;
  bool pareto = false;
  for (const auto& r : t.rows)
    for (const auto& c : r) pareto = pareto || c.flag;
  if (!t.title.empty()) os << "<h2>" << html_escape(t.title) << "</h2>\n";
  if (pareto) os << "<p class=\"legend\">Highlighted rows are on the Pareto frontier: no other option is cheaper, faster and roomier at once.</p>\n";
  os << "<div class=\"scroll\"><table class=\"capplan\">\n<thead><tr>";
  for (const auto& c : t.columns) {
    os << "<th scope=\"col\" data-key=\"" << html_escape(c.key) << "\"" << (c.align == Align::right ? " class=\"num\"" : "") << ">"
       << html_escape(c.header) << "</th>";
  }
  os << "</tr></thead>\n<tbody>\n";
  for (const auto& r : t.rows) {
    bool flagged = false;
    for (const auto& c : r) flagged = flagged || c.flag;
    os << (flagged ? "<tr class=\"pareto\">" : "<tr>");
    for (std::size_t i = 0; i < r.size(); ++i) {
      os << "<td" << (t.columns[i].align == Align::right ? " class=\"num\"" : "");
      if (r[i].number && std::isfinite(*r[i].number)) os << " data-v=\"" << json_number(*r[i].number) << "\"";
      os << ">" << html_escape(r[i].text) << "</td>";
    }
    os << "</tr>\n";
  }
  os << "</tbody>\n</table></div>\n";
  if (!t.notes.empty()) {
    os << "<ul class=\"notes\">\n";
    for (const auto& n : t.notes) os << "<li>" << html_escape(n) << "</li>\n";
    os << "</ul>\n";
  }
  return os.str();
}

}  // namespace detail

// The whole page: title, the first table, the charts, the other tables, the arithmetic.
inline std::string render_html_page(const HtmlReport& r) {
  using namespace detail;
  std::ostringstream os;
  const std::string title = r.title.empty() ? (r.tables.empty() ? std::string("capplan report") : r.tables.front().title) : r.title;
  os << "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
     << "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
     << "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:\">\n"
     << "<title>" << html_escape(title) << "</title>\n<style>" << report_css << "</style>\n</head>\n<body>\n<h1>" << html_escape(title)
     << "</h1>\n";
  // The charts after the first table, or before it when it is long (a purchase table of every
  // option), so they are seen without scrolling past it.
  const auto charts = [&] {
    if (r.charts.empty()) return;
    os << "<section class=\"charts\">\n";
    for (const auto& c : r.charts) os << c;
    os << "</section>\n";
  };
  const bool charts_first = r.tables.empty() || r.tables.front().rows.size() > 15;
  if (charts_first) charts();
  for (std::size_t i = 0; i < r.tables.size(); ++i) {
    Table t = r.tables[i];
    if (i == 0 && t.title == title) t.title.clear();  // the page's heading already says it
    os << "<section>\n" << report_table(t) << "</section>\n";
    if (i == 0 && !charts_first) charts();
  }
  if (!r.more_charts.empty()) {
    os << "<details class=\"more\">\n<summary>" << html_escape(r.more_title) << " (" << r.more_charts.size()
       << ")</summary>\n<section class=\"charts\">\n";
    for (const auto& c : r.more_charts) os << c;
    os << "</section>\n</details>\n";
  }
  if (!r.explanation.empty()) {
    os << "<h2>Arithmetic</h2>\n<pre class=\"explain\">";
    for (const auto& line : r.explanation) os << html_escape(line) << "\n";
    os << "</pre>\n";
  }
  os << "<footer>Made by " << html_escape(r.generator)
     << ". Click a column header to sort; the address can hold a view (#sort=KEY&amp;dir=desc&amp;filter=TEXT).</footer>\n<script>" << report_js
     << "</script>\n</body>\n</html>\n";
  return os.str();
}

}  // namespace capplan
