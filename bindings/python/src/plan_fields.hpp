// Plan fields bound the same way wherever a record carries them.
#pragma once

#include "record.hpp"

#include <capplan/workload/parallel_plan.hpp>

#include <cstdint>
#include <string>

namespace capplan::python {

// A record's recompute_modules (workload/parallel_plan.hpp recompute_module bits) as Megatron-Core's
// names: read as text ("mlp,mla_up_proj", "" for none), set from text (commas or spaces), refused
// with an error naming recompute_modules for an unknown name.
template <class T, class... Extra>
void recompute_modules_field(Record<T, Extra...>& r, std::uint8_t T::*member, const char* doc) {
  r.property(
      "recompute_modules", [member](const T& t) { return recompute_modules_text(t.*member); },
      [member](T& t, const std::string& s) { t.*member = s.empty() ? std::uint8_t{0} : parse_recompute_modules(s); },
      [member](const T& t) { return py::object(py::str(recompute_modules_text(t.*member))); }, {}, doc);
}

}  // namespace capplan::python
