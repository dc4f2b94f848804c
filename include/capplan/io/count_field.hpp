// A parameter count in a JSON file (model files' "params", image-model files' "parameters"): a number,
// or a text that capplan::parse_count reads ("86,567,656", "7.24e9", "174.6 billion"); positive and at
// most `max`. One reader for both file formats, so both say the same about a bad count.
#pragma once

#include "capplan/io/json_document.hpp"
#include "capplan/units/count.hpp"

#include <cmath>
#include <optional>
#include <string>
#include <string_view>

namespace capplan::io {

// nullopt when the key is absent; otherwise the count, or InputError naming the key and the value.
inline std::optional<double> read_parameter_count(ObjectReader& r, std::string_view key, std::string_view example, double max) {
  const Json* p = r.find(key);
  if (!p) return std::nullopt;
  double v = 0;
  if (p->is_string()) {
    try {
      v = static_cast<double>(parse_count(p->get_ref<const std::string&>(), key));
    } catch (const InputError& e) {
      r.rethrow(e, key);
    }
  } else if (p->is_number()) {
    v = p->get<double>();
  } else {
    r.type_error(key, *p, "a parameter count such as " + std::string(example));
  }
  if (!std::isfinite(v)) r.fail(key, p->dump(), "is not a finite number");
  if (v < 0) r.fail(key, detail::value_text(*p), "is negative");
  if (v < 1) r.fail(key, detail::value_text(*p), "must be > 0");
  if (v > max) r.fail(key, detail::value_text(*p), "is absurd (more than 1e15)");
  return v;
}

}  // namespace capplan::io
