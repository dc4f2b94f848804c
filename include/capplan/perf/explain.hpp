// Explain: every estimate carries the terms it adds up, each with the arithmetic behind it, and
// prints them as text ("tensor-parallel all-reduce  12.3 ms  = 6 x 48 layers x 42.7 us").
#pragma once

#include "capplan/units/format.hpp"
#include "capplan/units/quantity.hpp"

#include <algorithm>
#include <string>
#include <vector>

namespace capplan::perf {

// One line of a breakdown: a named time, how it was computed, and what limits it.
struct Term {
  std::string name;
  Duration time{};
  std::string arithmetic;  // "4 x 24 layers x 0.89 ms"
  std::string bound;       // "compute", "memory", "NVLink", "InfiniBand", ...
};

struct Breakdown {
  std::vector<Term> terms;
  std::vector<std::string> assumptions;

  void add(std::string name, double seconds, std::string arithmetic, std::string bound = {}) {
    terms.push_back(Term{std::move(name), from_canonical<Duration>(seconds), std::move(arithmetic), std::move(bound)});
  }
  [[nodiscard]] Duration total() const {
    Duration t = from_canonical<Duration>(0);
    for (const auto& x : terms) t += x.time;
    return t;
  }
  // The terms, one per line, with their share of the total and their arithmetic.
  [[nodiscard]] std::string text() const {
    std::string out;
    const double total_s = total().value();
    std::size_t width = 0;
    for (const auto& x : terms) width = std::max(width, x.name.size());
    for (const auto& x : terms) {
      std::string line = "  " + x.name + std::string(width - x.name.size() + 2, ' ');
      line += format(x.time, {.significant = 4});
      if (total_s > 0) line += "  (" + format_number(100.0 * x.time.value() / total_s, 3) + " %)";
      if (!x.bound.empty()) line += "  [" + x.bound + "]";
      if (!x.arithmetic.empty()) line += "  = " + x.arithmetic;
      out += line + "\n";
    }
    out += "  total" + std::string(width > 3 ? width - 3 : 2, ' ') + format(total(), {.significant = 4}) + "\n";
    for (const auto& a : assumptions) out += "  assumes: " + a + "\n";
    return out;
  }
};

// "1.234 ms" etc. for use inside arithmetic strings.
inline std::string seconds_text(double s) { return format(from_canonical<Duration>(s), {.significant = 4}); }
inline std::string num(double v, int significant = 4) { return format_number(v, significant); }

}  // namespace capplan::perf
