// Money for programs: a key that names USD ("cost_usd") holds an exact decimal string in USD or null,
// never another currency. A figure in another currency (a CNY rent without an --fx rate) leaves it null
// and goes under the keys other_currency_keys() names (report/value.hpp): its exact digits ("cost":
// "50000") and its ISO code ("cost_currency": "CNY"); those keys appear only where such a figure
// does. No conversion is assumed.
#pragma once

#include "capplan/money/format.hpp"
#include "capplan/report/value.hpp"

#include <optional>
#include <string_view>

namespace capplan::detail {

// Sets j[usd_key] to `m` in USD (an exact decimal), or null; `m` in another currency goes under its
// own two keys after it (see above).
template <class D>
void put_usd(Value& j, std::string_view usd_key, const std::optional<BasicMoney<D>>& m) {
  const std::string key(usd_key);
  if (!m || m->currency() == Currency::USD) {
    j[key] = m ? Value(Value::Exact{to_json_string(*m)}) : Value();
    return;
  }
  j[key] = Value();
  const auto [amount, currency] = other_currency_keys(usd_key);
  j[amount] = Value::Exact{to_json_string(*m)};
  j[currency] = std::string(code(m->currency()));
}

}  // namespace capplan::detail
