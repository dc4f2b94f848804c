// Charts as inline SVG, drawn by the library (no plotting library at run time): the cumulative cost
// of owning against renting with the break-even month marked, price against time with the Pareto
// frontier, and memory as stacked bars against each GPU's capacity. The HTML report
// (report/html_page.hpp) puts them in the page; Python shows them in notebooks (_repr_svg_).
//
//   LineChart c = line_chart(cost_table, "month", {"owned_usd", "rented_usd"});
//   c.marker_x = 2;  c.marker_label = "break-even: month 2";
//   std::string svg = render_svg(c);
//
// Non-finite values are left out (a point without a number is not drawn); a chart with nothing to
// draw says so in its picture. Text is escaped; the SVG is a fixed 640 x 360 view box that scales to
// its container.
#pragma once

#include "capplan/detail/text.hpp"
#include "capplan/report/table.hpp"
#include "capplan/units/format.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <optional>
#include <sstream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace capplan {

struct ChartSeries {
  std::string name;
  std::vector<double> x, y;
};

// Lines over a shared x axis, with an optional vertical marker (the break-even month).
struct LineChart {
  std::string title, x_label, y_label;
  std::vector<ChartSeries> series;
  std::optional<double> marker_x;
  std::string marker_label;
};

struct ScatterPoint {
  double x = 0, y = 0;
  std::string label;
  bool highlight = false;  // on the Pareto frontier: drawn larger, labelled, joined by the frontier line
  std::string group;       // what the y value is (e.g. "Own" or "Rent"): one colour and legend entry each
};

// Points (an option's time or speed against its price); highlighted points are joined in x order.
struct ScatterChart {
  std::string title, x_label, y_label;
  std::vector<ScatterPoint> points;
  bool log_x = false, log_y = false;  // logarithmic axes (prices and times spanning decades)
};

struct BarSegment {
  std::string label;
  double value = 0;
};

struct StackedBar {
  std::string label;
  std::vector<BarSegment> segments;
  std::optional<double> capacity;  // drawn as a line across the bar (a GPU's memory)
};

// Horizontal stacked bars sharing one scale (memory per GPU against capacity).
struct BarChart {
  std::string title, unit;  // unit: how the axis labels read ("GB")
  double unit_scale = 1;    // value / unit_scale is what the axis shows (1e9 for GB)
  std::vector<StackedBar> bars;
};

namespace detail {

inline constexpr double chart_w = 640, chart_h = 360;
inline constexpr double chart_left = 72, chart_right = 16, chart_top = 40, chart_bottom = 56;
inline constexpr const char* chart_colors[] = {"#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#17becf", "#8c564b", "#e377c2"};

inline std::string svg_number(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f", v);
  return buf;
}

// Axis labels: 3 significant digits with k, M, G for thousands, millions, billions.
inline std::string tick_text(double v) {
  const double a = std::fabs(v);
  if (a >= 1e9) return format_number(v / 1e9, 3) + "G";
  if (a >= 1e6) return format_number(v / 1e6, 3) + "M";
  if (a >= 1e4) return format_number(v / 1e3, 3) + "k";
  return format_number(v, 3);
}

// A round step (1, 2 or 5 x 10^k) giving about five ticks over [lo, hi].
inline double nice_step(double lo, double hi) {
  if (!(hi > lo)) hi = lo + 1;
  const double raw = (hi - lo) / 5;
  const double mag = std::pow(10.0, std::floor(std::log10(raw)));
  const double f = raw / mag;
  return (f <= 1 ? 1 : f <= 2 ? 2 : f <= 5 ? 5 : 10) * mag;
}

// The ticks of nice_step inside [lo, hi].
inline std::vector<double> nice_ticks(double lo, double hi) {
  if (!(hi > lo)) hi = lo + 1;
  const double step = nice_step(lo, hi);
  std::vector<double> out;
  for (double t = std::ceil(lo / step - 1e-9) * step; t <= hi + step * 1e-9 && out.size() < 12; t += step) out.push_back(std::fabs(t) < step * 1e-9 ? 0 : t);
  return out;
}

// Decades for a logarithmic axis.
inline std::vector<double> log_ticks(double lo, double hi) {
  std::vector<double> out;
  for (double e = std::floor(std::log10(lo)); e <= std::ceil(std::log10(hi)) && out.size() < 12; ++e) {
    const double t = std::pow(10.0, e);
    if (t >= lo * (1 - 1e-9) && t <= hi * (1 + 1e-9)) out.push_back(t);
  }
  return out;
}

// A linear or logarithmic mapping of [lo, hi] onto pixels [a, b].
struct Scale {
  double lo = 0, hi = 1, a = 0, b = 1;
  bool log = false;
  [[nodiscard]] double operator()(double v) const {
    const double t = log ? (std::log10(v) - std::log10(lo)) / (std::log10(hi) - std::log10(lo)) : (v - lo) / (hi - lo);
    return a + t * (b - a);
  }
};

// Padded bounds of finite values (positive only on a log axis); nullopt when none.
inline std::optional<std::pair<double, double>> bounds(const std::vector<double>& v, bool log, bool from_zero) {
  double lo = INFINITY, hi = -INFINITY;
  for (double x : v) {
    if (!std::isfinite(x) || (log && x <= 0)) continue;
    lo = std::min(lo, x);
    hi = std::max(hi, x);
  }
  if (!std::isfinite(lo)) return std::nullopt;
  if (log) {
    if (hi <= lo) hi = lo * 10;
    return std::pair{std::pow(10.0, std::floor(std::log10(lo))), std::pow(10.0, std::ceil(std::log10(hi)))};
  }
  if (from_zero) lo = std::min(lo, 0.0);
  if (hi <= lo) hi = lo + (lo == 0 ? 1 : std::fabs(lo) * 0.1);
  // Out to the next round tick on each side, so the top and bottom of the plot are labelled.
  const double step = nice_step(lo, hi);
  return std::pair{std::floor(lo / step + 1e-9) * step, std::ceil(hi / step - 1e-9) * step};
}

inline void svg_open(std::ostringstream& os, const std::string& title, double height = chart_h) {
  os << "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"capplan-chart\" viewBox=\"0 0 640 " << svg_number(height) << "\" role=\"img\" aria-label=\""
     << html_escape(title) << "\" font-family=\"system-ui, sans-serif\" font-size=\"12\">\n<title>" << html_escape(title) << "</title>\n"
     << "<rect width=\"640\" height=\"" << svg_number(height) << "\" fill=\"#fff\"/>\n"
     << "<text x=\"320\" y=\"22\" text-anchor=\"middle\" font-size=\"14\" font-weight=\"600\">" << html_escape(title) << "</text>\n";
}

inline std::string svg_empty(const std::string& title, std::string_view why) {
  std::ostringstream os;
  svg_open(os, title);
  os << "<text x=\"320\" y=\"190\" text-anchor=\"middle\" fill=\"#666\">" << html_escape(why) << "</text>\n</svg>\n";
  return os.str();
}

// Axes, grid lines, tick labels and axis titles.
inline void svg_axes(std::ostringstream& os, const Scale& sx, const Scale& sy, const std::string& x_label, const std::string& y_label) {
  const double x0 = chart_left, x1 = chart_w - chart_right, y0 = chart_h - chart_bottom, y1 = chart_top;
  for (double t : sy.log ? log_ticks(sy.lo, sy.hi) : nice_ticks(sy.lo, sy.hi)) {
    const double y = sy(t);
    os << "<line x1=\"" << svg_number(x0) << "\" x2=\"" << svg_number(x1) << "\" y1=\"" << svg_number(y) << "\" y2=\"" << svg_number(y)
       << "\" stroke=\"#e5e5e5\"/>\n<text x=\"" << svg_number(x0 - 6) << "\" y=\"" << svg_number(y + 4) << "\" text-anchor=\"end\" fill=\"#444\">"
       << html_escape(tick_text(t)) << "</text>\n";
  }
  for (double t : sx.log ? log_ticks(sx.lo, sx.hi) : nice_ticks(sx.lo, sx.hi)) {
    const double x = sx(t);
    os << "<line x1=\"" << svg_number(x) << "\" x2=\"" << svg_number(x) << "\" y1=\"" << svg_number(y0) << "\" y2=\"" << svg_number(y0 + 4)
       << "\" stroke=\"#444\"/>\n<text x=\"" << svg_number(x) << "\" y=\"" << svg_number(y0 + 18) << "\" text-anchor=\"middle\" fill=\"#444\">"
       << html_escape(tick_text(t)) << "</text>\n";
  }
  os << "<line x1=\"" << svg_number(x0) << "\" x2=\"" << svg_number(x1) << "\" y1=\"" << svg_number(y0) << "\" y2=\"" << svg_number(y0)
     << "\" stroke=\"#444\"/>\n<line x1=\"" << svg_number(x0) << "\" x2=\"" << svg_number(x0) << "\" y1=\"" << svg_number(y0) << "\" y2=\""
     << svg_number(y1) << "\" stroke=\"#444\"/>\n";
  os << "<text x=\"" << svg_number((x0 + x1) / 2) << "\" y=\"" << svg_number(chart_h - 12) << "\" text-anchor=\"middle\">" << html_escape(x_label)
     << "</text>\n<text transform=\"translate(16," << svg_number((y0 + y1) / 2) << ") rotate(-90)\" text-anchor=\"middle\">" << html_escape(y_label)
     << "</text>\n";
}

}  // namespace detail

inline std::string render_svg(const LineChart& c) {
  using namespace detail;
  std::vector<double> xs, ys;
  for (const auto& s : c.series) {
    if (s.x.size() != s.y.size()) detail::fail("series", s.name, "has " + std::to_string(s.x.size()) + " x values and " + std::to_string(s.y.size()) + " y values");
    xs.insert(xs.end(), s.x.begin(), s.x.end());
    ys.insert(ys.end(), s.y.begin(), s.y.end());
  }
  const auto bx = bounds(xs, false, false), by = bounds(ys, false, true);
  if (!bx || !by) return svg_empty(c.title, "no values to draw");
  const Scale sx{bx->first, bx->second, chart_left, chart_w - chart_right, false};
  const Scale sy{by->first, by->second, chart_h - chart_bottom, chart_top, false};
  std::ostringstream os;
  svg_open(os, c.title);
  svg_axes(os, sx, sy, c.x_label, c.y_label);
  for (std::size_t i = 0; i < c.series.size(); ++i) {
    const auto& s = c.series[i];
    const char* color = chart_colors[i % std::size(chart_colors)];
    std::string pts;
    for (std::size_t k = 0; k < s.x.size(); ++k) {
      if (!std::isfinite(s.x[k]) || !std::isfinite(s.y[k])) continue;
      pts += (pts.empty() ? "" : " ") + svg_number(sx(s.x[k])) + "," + svg_number(sy(s.y[k]));
    }
    os << "<polyline class=\"series\" data-series=\"" << html_escape(s.name) << "\" fill=\"none\" stroke=\"" << color
       << "\" stroke-width=\"2.5\" points=\"" << pts << "\"/>\n";
    // Legend, top left inside the plot.
    const double ly = chart_top + 8 + 18 * static_cast<double>(i);
    os << "<rect x=\"" << svg_number(chart_left + 12) << "\" y=\"" << svg_number(ly) << "\" width=\"14\" height=\"4\" fill=\"" << color
       << "\"/>\n<text x=\"" << svg_number(chart_left + 32) << "\" y=\"" << svg_number(ly + 6) << "\">" << html_escape(s.name) << "</text>\n";
  }
  if (c.marker_x && std::isfinite(*c.marker_x) && *c.marker_x >= sx.lo && *c.marker_x <= sx.hi) {
    const double x = sx(*c.marker_x);
    os << "<g class=\"marker\" data-x=\"" << html_escape(format_number(*c.marker_x, 6)) << "\"><line x1=\"" << svg_number(x) << "\" x2=\""
       << svg_number(x) << "\" y1=\"" << svg_number(chart_h - chart_bottom) << "\" y2=\"" << svg_number(chart_top)
       << "\" stroke=\"#333\" stroke-dasharray=\"5 4\"/>\n<text x=\"" << svg_number(x + 6) << "\" y=\"" << svg_number(chart_top + 12)
       << "\" fill=\"#333\">" << html_escape(c.marker_label) << "</text></g>\n";
  }
  os << "</svg>\n";
  return os.str();
}

inline std::string render_svg(const ScatterChart& c) {
  using namespace detail;
  std::vector<double> xs, ys;
  for (const auto& p : c.points) {
    xs.push_back(p.x);
    ys.push_back(p.y);
  }
  const auto bx = bounds(xs, c.log_x, !c.log_x), by = bounds(ys, c.log_y, !c.log_y);
  if (!bx || !by) return svg_empty(c.title, "no option has both figures");
  const Scale sx{bx->first, bx->second, chart_left, chart_w - chart_right, c.log_x};
  const Scale sy{by->first, by->second, chart_h - chart_bottom, chart_top, c.log_y};
  const auto drawable = [&](const ScatterPoint& p) {
    return std::isfinite(p.x) && std::isfinite(p.y) && (!c.log_x || p.x > 0) && (!c.log_y || p.y > 0);
  };
  std::ostringstream os;
  svg_open(os, c.title);
  svg_axes(os, sx, sy, c.x_label, c.y_label);
  std::vector<const ScatterPoint*> frontier;
  for (const auto& p : c.points)
    if (p.highlight && drawable(p)) frontier.push_back(&p);
  std::sort(frontier.begin(), frontier.end(), [](const ScatterPoint* a, const ScatterPoint* b) { return a->x < b->x; });
  if (frontier.size() > 1) {
    std::string pts;
    for (const auto* p : frontier) pts += (pts.empty() ? "" : " ") + svg_number(sx(p->x)) + "," + svg_number(sy(p->y));
    os << "<polyline class=\"frontier\" fill=\"none\" stroke=\"#d62728\" stroke-width=\"1.5\" stroke-dasharray=\"4 3\" points=\"" << pts << "\"/>\n";
  }
  // Groups in order of appearance, one colour each (the frontier's red is kept for the frontier).
  static constexpr const char* group_colors[] = {"#1f77b4", "#2ca02c", "#9467bd", "#ff7f0e", "#17becf", "#8c564b"};
  std::vector<std::string> groups;
  const auto color_of = [&](const std::string& g) {
    auto it = std::find(groups.begin(), groups.end(), g);
    if (it == groups.end()) it = groups.insert(groups.end(), g);
    return group_colors[static_cast<std::size_t>(it - groups.begin()) % std::size(group_colors)];
  };
  // Frontier labels: points drawn at the same place share one label ("b200, vast-b200").
  struct Label {
    std::string px, py;  // the position as printed: points printed alike share the label
    double x, y;
    std::string text;
  };
  std::vector<Label> labels;
  for (const auto& p : c.points) {
    if (!drawable(p)) continue;
    const std::string px = svg_number(sx(p.x)), py = svg_number(sy(p.y));
    os << "<circle class=\"point" << (p.highlight ? " pareto" : "") << "\" cx=\"" << px << "\" cy=\"" << py << "\" r=\""
       << (p.highlight ? "5.5" : "3.5") << "\" fill=\"" << color_of(p.group) << "\" fill-opacity=\"0.85\""
       << (p.highlight ? " stroke=\"#d62728\" stroke-width=\"2\"" : "") << "><title>"
       << html_escape(p.label + (p.group.empty() ? "" : " (" + p.group + ")")) << "</title></circle>\n";
    if (!p.highlight) continue;
    auto it = std::find_if(labels.begin(), labels.end(), [&](const Label& l) { return l.px == px && l.py == py; });
    if (it == labels.end()) labels.push_back({px, py, sx(p.x), sy(p.y), p.label});
    else it->text += ", " + p.label;
  }
  for (const Label& l : labels)
    os << "<text x=\"" << svg_number(l.x + 8) << "\" y=\"" << svg_number(l.y - 7) << "\" font-size=\"11\" fill=\"#7a1010\">"
       << html_escape(l.text) << "</text>\n";
  // Legend: the groups, then the frontier.
  double lx = chart_left + 8;
  for (const auto& g : groups) {
    if (g.empty()) continue;
    os << "<circle cx=\"" << svg_number(lx + 4) << "\" cy=\"" << svg_number(chart_top - 8) << "\" r=\"4\" fill=\"" << color_of(g)
       << "\"/>\n<text x=\"" << svg_number(lx + 12) << "\" y=\"" << svg_number(chart_top - 4) << "\" font-size=\"11\">" << html_escape(g) << "</text>\n";
    lx += 24 + 6.5 * static_cast<double>(g.size());
  }
  os << "<text x=\"" << svg_number(chart_w - chart_right) << "\" y=\"" << svg_number(chart_top - 4)
     << "\" text-anchor=\"end\" font-size=\"11\" fill=\"#7a1010\">ringed: Pareto frontier (dashed)</text>\n</svg>\n";
  return os.str();
}

inline std::string render_svg(const BarChart& c) {
  using namespace detail;
  double hi = 0;
  for (const auto& b : c.bars) {
    double sum = 0;
    for (const auto& s : b.segments)
      if (std::isfinite(s.value) && s.value > 0) sum += s.value;
    hi = std::max(hi, sum);
    if (b.capacity && std::isfinite(*b.capacity)) hi = std::max(hi, *b.capacity);
  }
  if (c.bars.empty() || !(hi > 0)) return svg_empty(c.title, "no values to draw");
  const double scale = c.unit_scale > 0 ? c.unit_scale : 1;
  const double top = nice_step(0, hi / scale) * std::ceil(hi / scale / nice_step(0, hi / scale) - 1e-9);
  const auto t = nice_ticks(0, top);
  const Scale sx{0, top, chart_left + 60, chart_w - chart_right - 24, false};
  // 56 px per bar: the picture is as tall as its bars need.
  const double band = 56, bar_h = 30;
  const double height = chart_top + 14 + band * static_cast<double>(c.bars.size()) + 66;
  std::ostringstream os;
  svg_open(os, c.title, height);
  const double y_axis = height - 66;
  for (double v : t) {
    const double x = sx(v);
    os << "<line x1=\"" << svg_number(x) << "\" x2=\"" << svg_number(x) << "\" y1=\"" << svg_number(chart_top) << "\" y2=\"" << svg_number(y_axis)
       << "\" stroke=\"#e5e5e5\"/>\n<text x=\"" << svg_number(x) << "\" y=\"" << svg_number(y_axis + 16) << "\" text-anchor=\"middle\" fill=\"#444\">"
       << html_escape(tick_text(v)) << "</text>\n";
  }
  os << "<text x=\"" << svg_number((sx.a + sx.b) / 2) << "\" y=\"" << svg_number(height - 30) << "\" text-anchor=\"middle\">" << html_escape(c.unit)
     << "</text>\n";
  std::vector<std::string> legend;
  for (std::size_t i = 0; i < c.bars.size(); ++i) {
    const auto& b = c.bars[i];
    const double y = chart_top + 14 + band * static_cast<double>(i) + (band - bar_h) / 2;
    os << "<text x=\"" << svg_number(sx.a - 6) << "\" y=\"" << svg_number(y + bar_h / 2 + 4) << "\" text-anchor=\"end\">" << html_escape(b.label)
       << "</text>\n";
    double at = 0;
    for (const auto& s : b.segments) {
      if (!std::isfinite(s.value) || s.value <= 0) continue;
      auto it = std::find(legend.begin(), legend.end(), s.label);
      if (it == legend.end()) {
        legend.push_back(s.label);
        it = legend.end() - 1;
      }
      const char* color = chart_colors[static_cast<std::size_t>(it - legend.begin()) % std::size(chart_colors)];
      const double x0 = sx(at / scale), x1 = sx((at + s.value) / scale);
      os << "<rect class=\"segment\" x=\"" << svg_number(x0) << "\" y=\"" << svg_number(y) << "\" width=\"" << svg_number(std::max(0.5, x1 - x0))
         << "\" height=\"" << svg_number(bar_h) << "\" fill=\"" << color << "\"><title>" << html_escape(s.label + ": " + tick_text(s.value / scale) + " " + c.unit)
         << "</title></rect>\n";
      at += s.value;
    }
    if (b.capacity && std::isfinite(*b.capacity)) {
      const double x = sx(*b.capacity / scale);
      os << "<line class=\"capacity\" x1=\"" << svg_number(x) << "\" x2=\"" << svg_number(x) << "\" y1=\"" << svg_number(y - 6) << "\" y2=\""
         << svg_number(y + bar_h + 6) << "\" stroke=\"#000\" stroke-width=\"2\"/>\n<text x=\"" << svg_number(x) << "\" y=\"" << svg_number(y - 9)
         << "\" text-anchor=\"middle\" font-size=\"11\">capacity " << html_escape(tick_text(*b.capacity / scale)) << "</text>\n";
    }
  }
  // Legend along the bottom.
  double lx = chart_left;
  for (std::size_t i = 0; i < legend.size(); ++i) {
    const double w = 22 + 6.5 * static_cast<double>(legend[i].size());
    if (lx + w > chart_w - chart_right) break;
    os << "<rect x=\"" << svg_number(lx) << "\" y=\"" << svg_number(height - 16) << "\" width=\"10\" height=\"10\" fill=\""
       << chart_colors[i % std::size(chart_colors)] << "\"/>\n<text x=\"" << svg_number(lx + 14) << "\" y=\"" << svg_number(height - 7)
       << "\" font-size=\"11\">" << html_escape(legend[i]) << "</text>\n";
    lx += w;
  }
  os << "</svg>\n";
  return os.str();
}

// Charts from a table's numbers (the cells' canonical values; cells without one are left out).

// Lines of the columns `y_keys` over the column `x_key`; each series named by its column header.
inline LineChart line_chart(const Table& t, std::string_view x_key, const std::vector<std::string>& y_keys) {
  LineChart c;
  c.title = t.title;
  const std::size_t xi = t.column_index(x_key);
  c.x_label = t.columns[xi].header;
  for (const auto& key : y_keys) {
    const std::size_t yi = t.column_index(key);
    ChartSeries s;
    s.name = t.columns[yi].header;
    for (const auto& r : t.rows) {
      if (!r[xi].number || !r[yi].number) continue;
      s.x.push_back(*r[xi].number);
      s.y.push_back(*r[yi].number);
    }
    c.series.push_back(std::move(s));
  }
  return c;
}

// One point per row: x from `x_key`, y from the first of `y_keys` the row has a number in, the
// label from `label_key`; rows with a flagged cell (the Pareto frontier) highlighted.
inline ScatterChart scatter_chart(const Table& t, std::string_view x_key, const std::vector<std::string>& y_keys, std::string_view label_key) {
  ScatterChart c;
  c.title = t.title;
  const std::size_t xi = t.column_index(x_key), li = t.column_index(label_key);
  c.x_label = t.columns[xi].header;
  std::vector<std::size_t> yi;
  for (const auto& k : y_keys) yi.push_back(t.column_index(k));
  std::string y_label;
  for (std::size_t i : yi) y_label += (y_label.empty() ? "" : ", else ") + t.columns[i].header;
  c.y_label = y_label;
  for (const auto& r : t.rows) {
    if (!r[xi].number) continue;
    std::optional<double> y;
    std::string group;
    for (std::size_t i : yi)
      if (!y && r[i].number) {
        y = r[i].number;
        group = yi.size() > 1 ? t.columns[i].header : std::string();
      }
    if (!y) continue;
    bool flag = false;
    for (const auto& cell : r) flag = flag || cell.flag;
    c.points.push_back({*r[xi].number, *y, r[li].text, flag, group});
  }
  return c;
}

}  // namespace capplan
