// Money for programs: an amount or a rate under a key that names USD ("cost_usd") is an exact decimal
// string in USD, or, where the figure is in another currency, text with its currency code and its
// exact digits ("50000 CNY"; tables show it rounded to cents), never a bare number that a reader would
// take for dollars. No conversion is assumed.
#pragma once

#include "capplan/money/format.hpp"
#include "capplan/report/value.hpp"

namespace capplan::detail {

template <class D>
Value usd_output(const BasicMoney<D>& m) {
  if (m.currency() != Currency::USD) return format(m, {.style = MoneyStyle::code, .exact = true});
  return Value::Exact{to_json_string(m)};
}

}  // namespace capplan::detail
